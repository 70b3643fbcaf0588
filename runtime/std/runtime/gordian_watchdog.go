// Gordian recorder: the global deadlock watchdog. See gordian.go and
// docs/trace-format.md ("Global deadlock").
//
// Go's own detector ("all goroutines are asleep") is silenced by any pending
// timer, including go test's -timeout alarm. The watchdog is a runtime
// goroutine that wakes every 100 ms. When no stamp was taken for
// GORDIAN_DEADLOCK_MS and every program goroutine is parked in a wait that
// only another program goroutine can end, it confirms the state with the
// world stopped, records GlobalDeadlock, prints the blocked goroutines and
// exits with status 3.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

const gordianWatchdogTick = 100 * 1000 * 1000 // ns

func gordianWatchdog() {
	last := gordian.clock.Load()
	since := nanotime()
	for {
		timeSleep(gordianWatchdogTick)
		if !gordianOn || gordian.exiting.Load() != 0 {
			return
		}
		now := nanotime()
		if s := gordian.clock.Load(); s != last {
			last, since = s, now
			continue
		}
		if now-since < gordian.deadlockNs {
			continue
		}
		if _, ok := gordianAllStuck(false); !ok {
			since = now
			continue
		}
		stw := stopTheWorld(stwGoroutineProfile)
		n, ok := gordianAllStuck(true)
		if !ok || gordian.clock.Load() != last || gordian.exiting.Load() != 0 {
			startTheWorld(stw)
			since = nanotime()
			continue
		}
		gordianReportDeadlock(n) // does not return
	}
}

// gordianStuckReason reports whether a goroutine parked for reason w can
// only be woken by another goroutine of the program.
func gordianStuckReason(w waitReason) bool {
	switch w {
	case waitReasonChanReceiveNilChan, waitReasonChanSendNilChan, waitReasonSelectNoCases,
		waitReasonSelect, waitReasonChanReceive, waitReasonChanSend, waitReasonSyncCondWait,
		waitReasonSyncMutexLock, waitReasonSyncRWMutexRLock, waitReasonSyncRWMutexLock,
		waitReasonSemacquire:
		return true
	}
	return gordianStuckReasonSince124(w)
}

// gordianAllStuck returns the number of program goroutines and whether all
// of them are stuck with at least one in a recorded operation. With full
// (the world stopped) it also looks at the channels they wait on and at the
// pending timers.
func gordianAllStuck(full bool) (int, bool) {
	total, recorded := 0, 0
	ptr, n := atomicAllG()
	for i := uintptr(0); i < n; i++ {
		g1 := atomicAllGIndex(ptr, i)
		if g1.gordian.gid == 0 {
			continue
		}
		status := readgstatus(g1) &^ _Gscan
		if status == _Gdead {
			continue
		}
		if status != _Gwaiting || !gordianStuckReason(g1.waitreason) {
			return 0, false
		}
		// A timer being fired (gwForeverTimer) hands its value over at
		// once; the watchdog looks again later anyway.
		if full {
			if st := gordianParkedState(g1, nanotime()); st != gwForever && st != gwForeverTimer {
				return 0, false // a live timer or a context deadline will wake it
			}
		}
		total++
		if b := atomic.Loaduintptr(&g1.gordian.blocked); b != 0 &&
			atomic.Load(&(*gordianRecord)(unsafe.Pointer(b)).tpost) == 0 {
			recorded++
		}
	}
	if recorded == 0 {
		return 0, false
	}
	if full && gordianPendingCallbacks() {
		return 0, false
	}
	return total, true
}

// gordianPendingCallbacks reports whether a time.AfterFunc callback that
// is not go test's own alarm is pending: it could unblock the program. A
// callback due after gordian's own limit for the run (GORDIAN_WALL_MS)
// does not count: gordian would kill the stuck program before it fires and
// report the same blocked goroutines, only later (a session timer of 30
// minutes kept such programs waiting for the whole -wall). The world is
// stopped.
func gordianPendingCallbacks() bool {
	for _, pp := range allp {
		if pp == nil {
			continue
		}
		for _, tw := range pp.timers.heap {
			t := tw.timer
			if t == nil || t.isChan || t.state&timerZombie != 0 || t.f == nil {
				continue
			}
			if gordian.wallEnd != 0 && tw.when > gordian.wallEnd {
				gordian.callbacksAfterWall = true
				continue
			}
			fv := *(**funcval)(unsafe.Pointer(&t.f))
			f := findfunc(fv.fn)
			if !f.valid() || funcname(f) != "time.goFunc" {
				continue
			}
			e := efaceOf(&t.arg)
			if e.data == nil {
				return true
			}
			cb := findfunc((*funcval)(e.data).fn)
			if cb.valid() && gordianHasPrefix(funcname(cb), "testing.") {
				continue // go test's -timeout alarm
			}
			return true
		}
	}
	return false
}

// gordianReportDeadlock records the deadlock, prints it and exits. The world
// is stopped.
func gordianReportDeadlock(n int) {
	st := &gordian.recorder
	st.gid = gordian.gids.Add(1)
	gordianOne(st, gkGlobalDeadlock, 0, 0, 0, uint32(n), 0)
	gordianExit(gordianDeadlockCode, gordianExitDeadlock)
	printlock()
	print("gordian: global deadlock: all ", n, " goroutines are blocked\n")
	if gordian.callbacksAfterWall {
		print("  (a time.AfterFunc callback is pending, due after gordian's -wall limit for this run)\n")
	}
	ptr, ng := atomicAllG()
	for i := uintptr(0); i < ng; i++ {
		g1 := atomicAllGIndex(ptr, i)
		if g1.gordian.gid == 0 || readgstatus(g1)&^_Gscan == _Gdead {
			continue
		}
		print("  goroutine ", g1.gordian.gid, " [", g1.waitreason.String(), "]")
		if b := g1.gordian.blocked; b != 0 {
			r := (*gordianRecord)(unsafe.Pointer(b))
			if pc := gordianSitePC(r.site); pc != 0 {
				file, line, fn := gordianSymbolize(pc)
				print(" ", fn, " at ", file, ":", line)
			}
		} else {
			print(" (not recorded)")
			if g1.gordian.gid == 1 {
				print(" main goroutine")
			} else if g1.gopc != 0 {
				file, line, fn := gordianSymbolize(g1.gopc - 1)
				print(" created by ", fn, " at ", file, ":", line)
			}
		}
		print("\n")
	}
	printunlock()
	exit(gordianDeadlockCode)
}
