// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.23 has them (gordian_release_go124.go says what each
// is), and what Go 1.23 lacks.

//go:build !go1.24

package runtime

import _ "unsafe" // for go:linkname

func gordianTimerIsFake(t *timer) bool { return false }

func gordianStuckReasonSince124(w waitReason) bool { return false }

// sync_gordianCallerPC is the pc in the caller of the sync method that
// calls it, as GetCallerPC in that method would give (the patches keep the
// method from being inlined): the return pc of the frame above the
// method's. Go 1.23 has no GetCallerPC that sync can use; unwinding one
// frame costs more, but only while recording.
//
//go:linkname sync_gordianCallerPC sync.gordianCallerPC
//go:noinline
func sync_gordianCallerPC() uintptr {
	pc0, sp0, gp := getcallerpc(), getcallersp(), getg()
	var pc uintptr
	systemstack(func() {
		var u unwinder
		u.initAt(pc0, sp0, 0, gp, unwindSilentErrors)
		u.next()
		if u.valid() {
			pc = u.frame.pc
		}
	})
	return pc
}
