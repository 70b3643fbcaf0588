// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.25 and later have them. gordian_release_pre125.go is
// the same for Go 1.23 and 1.24.

//go:build go1.25

package runtime

import "unsafe"

// gordianSysAlloc is sysAlloc; name labels the mapping (1.25 and later).
func gordianSysAlloc(n uintptr, stat *sysMemStat, name string) unsafe.Pointer {
	return sysAlloc(n, stat, name)
}

// gordianInBubble reports whether gp runs in a synctest bubble (its sleeps
// are on the bubble's fake clock).
func gordianInBubble(gp *g) bool { return gp.bubble != nil }
