// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.24 and later have them. gordian_release_pre124.go is
// the same for Go 1.23.

//go:build go1.24

package runtime

// gordianTimerIsFake reports whether t runs on a synctest bubble's fake
// clock (synctest came in 1.24).
func gordianTimerIsFake(t *timer) bool { return t.isFake }

// gordianStuckReasonSince124 is gordianStuckReason for the wait reasons
// that came in 1.24 (WaitGroup.Wait had waitReasonSemacquire before).
func gordianStuckReasonSince124(w waitReason) bool { return w == waitReasonSyncWaitGroupWait }
