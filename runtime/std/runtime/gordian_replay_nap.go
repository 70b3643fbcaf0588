// Gordian replay: the waiters' sleep, which the cursor's move to a waiter's
// position ends at once (gordian_replay.go says what the waiters wait for).
//
// Waiters used to sleep in time.Sleep between polls of the cursor, so the
// goroutine whose turn came noticed it only when its sleep ended. When
// every goroutine of the program waits, the Go scheduler sleeps in the
// network poller, whose timeout is in whole milliseconds: a 20 µs sleep
// took 1 ms, and a schedule of 700,003 operations among 100,000 goroutines
// replayed in 15 s of wall time for 6.5 s of CPU. A nap is the same sleep
// (same wait reason, same timer bound, so the stall policy and the
// deadlock watchdog see nothing new) that gordianReplayWake ends early:
// the goroutine that moves the cursor to position c wakes the goroutine
// the schedule gives c.
//
// The nap word of a goroutine's gordianReplayG is napSeq<<1 | 1 while it
// is parked in a nap, napSeq<<1 otherwise; whoever turns the parked bit
// off with a CAS (the waker, the nap's timer, or the parking goroutine
// itself when its turn came while it parked) owns the wake-up, so a
// goroutine is readied once per nap. napSeq grows with every nap, so a CAS
// meant for an earlier nap cannot end a later one.

package runtime

import "unsafe"

// gordianReplayNap sleeps up to ns, or until gordianReplayWake(pos) or the
// end of the schedule. Goroutines the schedule does not know, and those in
// a synctest bubble (whose sleeps run on the bubble's fake clock), sleep
// in time.Sleep.
func gordianReplayNap(s *gordianReplayG, pos int32, ns int64) {
	r := &gordianReplay
	gp := getg()
	if s.sid == gordianReplayNoSid || pos < 0 || gordianInBubble(gp) {
		timeSleep(ns)
		return
	}
	t := r.napTimers[s.sid]
	if t == nil {
		t = new(timer)
		t.init(gordianReplayNapFire, unsafe.Pointer(s))
		r.napTimers[s.sid] = t
	}
	s.napSeq++
	s.napPos = pos
	s.napWhen = nanotime() + ns
	s.napG = uintptr(unsafe.Pointer(gp))
	gopark(gordianReplayNapCommit, unsafe.Pointer(s), waitReasonSleep, traceBlockSleep, 1)
}

// gordianReplayNapCommit runs on the system stack once the napping
// goroutine is parked (as resetForSleep does for time.Sleep: a timer armed
// before could ready a goroutine that is not parked yet). It reports false,
// and the goroutine runs on, when its turn came, the schedule ended or the
// nap's time passed while it parked.
func gordianReplayNapCommit(gp *g, p unsafe.Pointer) bool {
	s := (*gordianReplayG)(p)
	r := &gordianReplay
	t := r.napTimers[s.sid]
	t.reset(s.napWhen, 0)
	parked := uint64(s.napSeq)<<1 | 1
	s.nap.Store(parked)
	// After the store: a waker that moved the cursor before it is seen here,
	// one that moves it after sees the parked bit (both sides are sequentially
	// consistent atomics). A timer that fired before the store is seen by the
	// clock.
	if r.cursor.Load() >= s.napPos || r.done.Load() != 0 || nanotime() >= s.napWhen {
		if s.nap.CompareAndSwap(parked, parked&^1) {
			t.stop()
			return false
		}
	}
	return true // woken by whoever turned the bit off (maybe already)
}

// gordianReplayNapFire is the nap timer's function: the nap's time is up.
func gordianReplayNapFire(arg any, _ uintptr, _ int64) {
	gordianReplayNapEnd((*gordianReplayG)(arg.(unsafe.Pointer)))
}

// gordianReplayNapEnd readies the goroutine of s if it is parked in a nap.
func gordianReplayNapEnd(s *gordianReplayG) {
	v := s.nap.Load()
	if v&1 != 0 && s.nap.CompareAndSwap(v, v&^1) {
		goready((*g)(unsafe.Pointer(s.napG)), 0)
	}
}

// gordianReplayWakeTurn runs when the cursor has moved to c: it wakes the
// goroutine whose turn c is, and the one of c+1, which polls while c's
// operation runs (a blocking operation parks in its channel or semaphore,
// and only a poller acknowledges it: gordianReplayAckParked). Without the
// second wake-up that poller noticed the park only when its nap ended (on
// an unbuffered channel the first of each pair of operations parks).
//
// c+1's first: goready puts the goroutine it readies next in line on this
// P, and the one readied before behind the others, so the goroutine whose
// turn it is comes first.
func gordianReplayWakeTurn(c int32) {
	gordianReplayWake(c + 1)
	gordianReplayWake(c)
}

// gordianReplayWake wakes the goroutine whose turn position c is, if it
// naps (it may nap waiting for another position, e.g. at a gate: it then
// polls once more and naps again).
func gordianReplayWake(c int32) {
	r := &gordianReplay
	if c < 0 || c >= r.nops {
		return
	}
	sid := r.opSid[c]
	gid := r.sidGid[sid]
	if gid == 0 {
		return // not spawned yet
	}
	if s := gordianReplayState(gid); s != nil && s.sid == sid {
		gordianReplayNapEnd(s)
	}
}
