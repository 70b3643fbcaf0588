// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.23 and 1.24 have them (gordian_release_go125.go says
// what each is).

//go:build !go1.25

package runtime

import "unsafe"

func gordianSysAlloc(n uintptr, stat *sysMemStat, name string) unsafe.Pointer {
	return sysAlloc(n, stat)
}
