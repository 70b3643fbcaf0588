// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.23 and 1.24 have them (gordian_release_go125.go says
// what each is).

//go:build !go1.25

package runtime

import "unsafe"

func gordianSysAlloc(n uintptr, stat *sysMemStat, name string) unsafe.Pointer {
	return sysAlloc(n, stat)
}

// In 1.24 the bubble is g.syncGroup, which 1.23 lacks: a goroutine of a
// bubble is known by its sleep timer (fake once it has slept), so a replay
// waiter of a 1.24 bubble that never slept before naps on the real clock.
func gordianInBubble(gp *g) bool { return gp.timer != nil && gordianTimerIsFake(gp.timer) }
