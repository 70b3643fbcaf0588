// Gordian recorder: the raw system call on Go 1.23 to 1.25, where the
// runtime's Linux system call package is internal/runtime/syscall (moved to
// internal/runtime/syscall/linux in 1.26: gordian_syscall_go126.go).

//go:build linux && (amd64 || arm64) && !go1.26

package runtime

import "internal/runtime/syscall"

//go:nosplit
func gordianSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2, errno uintptr) {
	return syscall.Syscall6(num, a1, a2, a3, a4, a5, a6)
}
