// Gordian replay: the after_end lines of a schedule (docs/schedule-format.md,
// "After-end lines"). This file is added to package runtime by the Gordian
// overlay. A line names a goroutine's NTH call of a reporting method of a
// *testing.T (a TestCall); the recorder's hook of that call
// (testing_gordianTestCall, gordian_proc.go) holds it here until the test
// whose T it calls has returned from its function, so that the call runs
// after the test's end: how a predicted testing-after-end is confirmed.

package runtime

// gordianAfterEndWaitNs bounds an after_end hold whose test does not end
// (schedule.h kMaxAfterEndWaitMs): a test that waits for the held
// goroutine through something the recorder does not see.
const gordianAfterEndWaitNs = 60 * 1000 * 1000 * 1000

// gordianReplayAfterEnd is called by a testing call (a TestCall of test idx
// about to be written, testing_gordianTestCall) of the goroutine of st. If
// the schedule has an after_end line for this call (its goroutine's NTH),
// the goroutine sleeps until test idx has returned from its function (its
// TestEnd is written and gordianReleaseHolds has run), the program ends,
// or gordianAfterEndWaitNs has passed; the call then runs after the end,
// while the recorder settles the test. Sleeping is not blocking for the
// deadlock watchdog, and holding one goroutine is a schedule any run can
// take.
func gordianReplayAfterEnd(st *gordianG, idx uint32) {
	r := &gordianReplay
	if !r.on || r.nAfterEnd == 0 {
		return
	}
	s := gordianReplayState(st.gid)
	if s == nil || s.sid == gordianReplayNoSid {
		return
	}
	s.calls++
	key := uint64(s.sid)<<32 | uint64(s.calls)
	held := false
	for i := int32(0); i < r.nAfterEnd; i++ {
		held = held || r.afterEnd[i] == key
	}
	if !held {
		return
	}
	deadline := nanotime() + gordianAfterEndWaitNs
	for !gordianTestEnded(idx) && nanotime() < deadline {
		timeSleep(500 * 1000)
	}
	gordianMetaInt("replay_after_end_ms", (nanotime()-deadline+gordianAfterEndWaitNs)/1000000)
}

// gordianTestEnded reports whether test idx has returned from its function
// (gordianReleaseHolds), or the program is ending.
func gordianTestEnded(idx uint32) bool {
	if gordian.holdsReleased.Load() != 0 {
		return true
	}
	return idx != 0 && idx < gordianEndedTests && gordian.testEnded[idx/32].Load()&(1<<(idx%32)) != 0
}
