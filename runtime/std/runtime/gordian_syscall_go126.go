// Gordian recorder: the raw system call on Go 1.26 and later, where the
// runtime's Linux system call package is internal/runtime/syscall/linux.
// gordian_syscall_pre126.go is the same for Go 1.23 to 1.25.

//go:build linux && (amd64 || arm64) && go1.26

package runtime

import "internal/runtime/syscall/linux"

//go:nosplit
func gordianSyscall6(num, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2, errno uintptr) {
	return linux.Syscall6(num, a1, a2, a3, a4, a5, a6)
}
