// Gordian recorder: goroutines, panics, program exit and tests. See
// gordian.go and docs/trace-format.md.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// gordianNewproc runs in newproc1 (on the system stack) for every goroutine
// that is not a runtime system goroutine: it gives the child a dense gid and
// records GoSpawn in the parent.
func gordianNewproc(newg, callergp *g, callerpc uintptr) {
	newg.gordian = gordianG{}
	if !gordianOn {
		return
	}
	st := &newg.gordian
	st.gid = gordian.gids.Add(1)
	st.startpc = newg.startpc
	ps := &callergp.gordian
	if ps.gid == 0 {
		// runtime.main (gid 1), made by the bootstrap: schedule goroutine
		// "1"; without the bind the replay could not find it to wake it
		// (gordian_replay_nap.go) or to tell whether it is asleep. Or a
		// goroutine the runtime starts for a timer's function (a context's
		// deadline): the replay lets it run free.
		gordianReplaySpawn(newg, st.gid, 0, 0)
		return
	}
	st.parent = ps.gid
	st.index = ps.nspawn
	ps.nspawn++
	gordianReplaySpawn(newg, st.gid, st.parent, st.index) // replay: gordian_replay.go
	st.test = ps.test
	site, cls := gordianSiteOf(ps, callerpc-1)
	if cls&gsUser != 0 {
		st.flags |= ggUserSpawn
	}
	gordianOne(ps, gkGoSpawn, 0, 0, site, st.gid, st.index)
}

// gordianGoexit runs at the start of goexit1: the goroutine's function
// returned or it called Goexit.
func gordianGoexit() {
	gp := getg()
	st := &gp.gordian
	if gordianOn && st.gid != 0 && (st.next != 0 || st.flags&ggUserSpawn != 0) {
		gordianOne(st, gkGoEnd, 0, 0, 0, 0, 0)
	}
	gp.gordian = gordianG{}
}

// gordianMainStart runs in runtime.main just before main.main.
func gordianMainStart() {
	if !gordianOn {
		return
	}
	gordianMetaInt("gomaxprocs", int64(gomaxprocs))
	if gordian.deadlockNs > 0 {
		go gordianWatchdog()
	}
}

// gordianExit records ProgramExit in the exiting goroutine (how is one of
// gordianExit*) and the exit status in meta.txt. It is called by
// runtime.main, os.Exit and the watchdog; only the first exit counts.
func gordianExit(code int, how int) {
	if how != gordianExitDeadlock {
		gordianReplayDrain() // replay: gordian_replay.go
	}
	deadline := gordianExitSettle(how) // before the exit is claimed: it may sleep
	if gordian.metaFd <= 0 || gordian.exiting.Swap(1) != 0 {
		return
	}
	gp := getg()
	if gp.m != nil && gp.m.curg != nil {
		gp = gp.m.curg
	}
	st := &gp.gordian
	if how == gordianExitDeadlock {
		st = &gordian.recorder
	}
	if gordianOn && st.gid != 0 {
		var fl uint8
		if deadline != 0 {
			gordianRecordBlocked(st, gp, 0, deadline)
			fl = gfExitChecked
		}
		gordianOne(st, gkProgramExit, fl, uint16(how), 0, 0, uint32(code))
	}
	gordianExitMeta(code, how)
}

// gordianFatal runs at the start of fatalpanic and fatalthrow (both nosplit,
// reachable from code that forbids write barriers): it writes ProgramExit
// only if the goroutine's run or chunk has room, or its P's shared chunk has
// room for a run of one record (no allocation, no locks).
//
//go:nosplit
//go:nowritebarrierrec
func gordianFatal(how int) {
	if gordian.metaFd <= 0 || gordian.exiting.Swap(1) != 0 {
		return
	}
	systemstack(func() {
		gordianFatalExit(how)
	})
}

//go:nowritebarrierrec
func gordianFatalExit(how int) {
	gp := getg()
	if gp.m != nil && gp.m.curg != nil {
		gp = gp.m.curg
	}
	st := &gp.gordian
	if gordianOn && st.gid != 0 && st.next != 0 {
		var p uintptr
		if st.next+gordianRecordBytes <= st.end {
			p = st.next
		} else {
			p = gordianFatalRun(st)
		}
		if p != 0 {
			st.next = p + gordianRecordBytes
			t := gordianStamp()
			gordianPut(p, gkProgramExit, 0, uint16(how), 0, t, t, 0, 2)
		}
	}
	gordianExitMeta(2, how)
}

// gordianFatalRun returns room for one record of st in a new run of one
// record, if its P's current shared chunk has room for it; else 0.
//
//go:nowritebarrierrec
func gordianFatalRun(st *gordianG) uintptr {
	mp := acquirem()
	var p uintptr
	if sh := gordianPShared(mp); sh != nil && sh.next != 0 && sh.next+2*gordianRecordBytes <= sh.end {
		p = gordianCarveRun(sh, st.gid, st.cseq, 1) + gordianChunkHdr
		st.cseq++
		st.end = p + gordianRecordBytes
	}
	releasem(mp)
	return p
}

//go:nowritebarrierrec
func gordianExitMeta(code, how int) {
	gordianMetaInt("exit_status", int64(code))
	reason := "main-returned"
	switch how {
	case gordianExitOsExit:
		reason = "os.Exit"
	case gordianExitPanic:
		reason = "panic"
	case gordianExitFatal:
		reason = "fatal-error"
	case gordianExitDeadlock:
		reason = "deadlock"
	}
	gordianMeta("exit_reason", reason)
}

// gordianPanic runs in gopanic before the panic starts: it completes the
// operation that panicked (send on a closed channel, close of a closed
// channel, negative WaitGroup counter) and records Panic.
func gordianPanic(e any, pc uintptr) {
	if !gordianOn {
		return
	}
	gp := getg()
	st := &gp.gordian
	if st.gid == 0 || st.inpanic != 0 {
		return
	}
	st.inpanic = 1
	if p := st.open; p != 0 {
		r := (*gordianRecord)(unsafe.Pointer(p))
		fl := uint8(gfFailed)
		switch r.kind {
		case gkChanSend, gkChanRecv, gkChanClose, gkSelect:
			fl = gfClosed
		case gkWgAdd:
			r.aux = gordianSat16(int32(st.seq))
		}
		var t uint32
		if gordianBlockingKind(r.kind) {
			t = gordianDoneStamp(p)
		} else {
			if r.tpre == 0 {
				r.tpre = gordianStamp()
			}
			t = r.tpre
		}
		r.flags |= fl
		if r.kind == gkSelect {
			gordianClosedSendCase(p, r, t)
		}
		atomic.Store(&r.tpost, t)
	}
	st.open, st.blocked, st.inop = 0, 0, 0
	gordianReplayPanic(st) // replay: the operation that panicked is done
	msg := gordianPanicMessage(e)
	id := gordianString(msg)
	site, _ := gordianSiteOf(st, pc-1)
	gordianOne(st, gkPanic, 0, 0, site, 0, id)
	st.inpanic = 0
}

func gordianSat16(v int32) uint16 {
	if v > 32767 {
		v = 32767
	} else if v < -32768 {
		v = -32768
	}
	return uint16(int16(v))
}

// gordianPanicMessage renders a panic value: a string as is; the Error
// method's result for runtime errors and for the error types of packages
// errors and fmt (whose methods are known to be safe to call); otherwise the
// type name in parentheses. Other methods are not called: the panic may be
// recovered, and stock Go would never have run them (an Error method could
// block on a lock the panicking goroutine holds).
func gordianPanicMessage(e any) (msg string) {
	if e == nil {
		return "nil"
	}
	if s, ok := e.(string); ok {
		return s
	}
	name := toRType(efaceOf(&e)._type).string()
	if v, ok := e.(error); ok {
		_, isRuntime := e.(Error)
		if isRuntime || name == "*errors.errorString" || name == "*fmt.wrapError" || name == "*fmt.wrapErrors" {
			defer func() {
				if recover() != nil {
					msg = "(" + name + ")"
				}
			}()
			return v.Error()
		}
	}
	return "(" + name + ")"
}

// ---- tests --------------------------------------------------------------------

// testing_gordianTestStart records TestStart in the test's goroutine and
// makes every goroutine it spawns belong to the test. It returns the test
// index (0 when not recording).
//
//go:linkname testing_gordianTestStart testing.gordianTestStart
func testing_gordianTestStart(name string) uint32 {
	if !gordianOn {
		return 0
	}
	st := &getg().gordian
	if st.gid == 0 {
		return 0
	}
	idx := gordian.ntests.Add(1)
	st.test = idx
	gordianOne(st, gkTestStart, 0, 0, 0, idx, gordianString(name))
	return idx
}

// testing_gordianTestEnd records TestEnd, then BlockedAtTestEnd for every
// goroutine of the test blocked forever in a recorded operation, after
// waiting for the test's goroutines to settle (gordian_settle.go).
//
//go:linkname testing_gordianTestEnd testing.gordianTestEnd
func testing_gordianTestEnd(idx uint32, failed bool) {
	if !gordianOn || idx == 0 {
		return
	}
	gp := getg()
	st := &gp.gordian
	var fl uint8
	if failed {
		fl = gfFailed
	}
	gordianOne(st, gkTestEnd, fl, 0, 0, idx, 0)
	gordianReplayTestEnd(st) // replay: gordian_replay.go
	gordianReleaseHolds(idx)
	deadline := nanotime() + gordian.settleNs
	gordianSettle(gp, idx, deadline)
	gordianRecordBlocked(st, gp, idx, deadline)
}

// testing_gordianTestCall records TestCall in the calling goroutine: a
// reporting method of test idx's T (val: its TestCallClass) called from pc
// (a return address in the caller of the method).
//
//go:linkname testing_gordianTestCall testing.gordianTestCall
func testing_gordianTestCall(idx uint32, class uint32, pc uintptr) {
	if !gordianOn || idx == 0 {
		return
	}
	st := &getg().gordian
	if st.gid == 0 {
		return
	}
	if _, _, fn := gordianSymbolize(pc - 1); gordianHasPrefix(fn, "testing.") {
		return // testing calls its own methods (Error calls Fail): not the user's call
	}
	gordianReplayAfterEnd(st, idx) // replay: an after_end line holds this call until the test ended
	site, _ := gordianSiteOf(st, pc-1)
	gordianOne(st, gkTestCall, 0, 0, site, idx, class)
}

//go:linkname testing_gordianEnabled testing.gordianEnabled
func testing_gordianEnabled() bool { return gordianOn }

// gordianClosedSendCase: the select of record p panicked before it parked
// (a select only panics sending on a closed channel; one parked and woken
// by the close has its case flagged by gordianClosedWake). With one send
// case, that case sent: it is flagged chosen and closed, so the finding is
// placed at the select, not at the panic's frame inside the runtime. With
// several send cases the recorder does not know which one, and leaves them.
func gordianClosedSendCase(p uintptr, r *gordianRecord, t uint32) {
	var send *gordianRecord
	for i := uintptr(1); i <= uintptr(r.aux); i++ {
		cr := (*gordianRecord)(unsafe.Pointer(p + i*gordianRecordBytes))
		if cr.kind != gkSelectCase || cr.flags&gfChosen != 0 {
			return // not a case, or the case is known
		}
		if cr.flags&gfDirSend != 0 {
			if send != nil {
				return
			}
			send = cr
		}
	}
	if send != nil {
		send.flags |= gfChosen | gfClosed
		send.tpost = t
		r.val = uint32(send.aux)
	}
}
