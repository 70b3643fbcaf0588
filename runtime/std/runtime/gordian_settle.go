// Gordian recorder: what "blocked forever" means, and the settle wait
// before the recorder says it. See gordian.go and docs/trace-format.md
// ("Tests", "Program exit", "Global deadlock").
//
// "Blocked forever" is a claim, made only when it holds (docs/design.md,
// "Blocked forever"). A goroutine is blocked forever when it is parked in a
// wait that only another goroutine can end (a channel operation, select,
// sync lock, WaitGroup, Cond) and no
// channel it waits on will still be made ready by a sender the runtime
// owns: a live time.Timer/Ticker/After timer (hchan.timer with when > 0;
// a stopped or fired one-shot timer has when == 0 and never sends again)
// (or hchan.gordian.atimer for asynchronous timer channels, gordian_chan.go)
// or a context deadline (hchan.gordian.deadline, set by the context hooks
// on the Done channel of a context whose deadline timer, its own or an
// ancestor's, will close it). The test-end check, the exit check and the
// deadlock watchdog all use this one definition (gordianParkedState).
//
// Before the test-end and exit checks the recorder settles: it waits, at
// most GORDIAN_SETTLE (Go duration syntax, default 1s), until every
// goroutine it checks is quiet, so that a goroutine that is still running
// or asleep when its test returns and blocks forever a moment later (a late
// leak) is seen blocked. Quiet means waiting longer within the bound changes
// nothing: finished, blocked forever, or waiting on something whose next
// event lies beyond the bound or repeats forever (a ticker; a timer, a
// context deadline or a time.Sleep that ends after the bound). Running,
// runnable, in a system call or network poll, sleeping or waiting on a
// timer that ends within the bound is not quiet.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// The default settle bound. A late leak typically blocks after a short
// sleep, a timeout or a slow reply: tens to hundreds of milliseconds after
// its test returns, more on a loaded CI machine. 1 s covers that (it is
// also the default of GORDIAN_DEADLOCK_MS: "long enough that nothing more
// will happen"). The cost is paid only while a goroutine of the test is
// still busy: a test whose goroutines all finished, blocked, or wait on a
// ticker or a far timer does not wait at all. (go.uber.org/goleak retries
// for only about 1.5 ms by default: it lets goroutines finish, but does not
// wait for a sleeping one.)
const gordianSettleDefault = 1000 * 1000 * 1000

// States of a goroutine for the settle wait and the checks.
const (
	gwDone    = iota // finished (or not a program goroutine)
	gwBusy           // running, or will wake up by itself within the bound
	gwAlive          // parked on something alive that will not fire within the bound
	gwForever        // blocked forever
	// Blocked forever, but one of the channels it waits on belongs to a
	// timer that has fired or was stopped: the runtime marks a firing
	// timer fired before it hands the value over, so for that moment a
	// receiver about to be woken looks blocked forever. The checks look
	// again before they say so (gordianSureForever).
	gwForeverTimer
)

// gordianSureForever returns gp's state once a gwForeverTimer has held for
// a while: a timer being fired hands its value over within microseconds
// (longer only when its thread is descheduled), so a goroutine still
// parked on the same wait after up to 20 ms of looking is blocked forever.
func gordianSureForever(gp *g, deadline int64) uint8 {
	state := gordianWaitState(gp, deadline)
	b := atomic.Loaduintptr(&gp.gordian.blocked)
	for i := 0; i < 20 && state == gwForeverTimer; i++ {
		timeSleep(1000 * 1000)
		if atomic.Loaduintptr(&gp.gordian.blocked) != b {
			return gwBusy // it moved on
		}
		state = gordianWaitState(gp, deadline)
	}
	if state == gwForeverTimer {
		return gwForever
	}
	return state
}

// gordianChanFeed reports when a runtime-owned sender will make c ready:
// the timer's next firing (nanotime) and its period (> 0: a ticker), or
// when == 0 if none will (no timer, a stopped or fired one-shot timer, a
// context channel already closed). The reads are racy by design: a
// parked receiver's timer is changed only by Stop/Reset, which make the
// answer change anyway.
//
//go:nosplit
func gordianChanFeed(c *hchan) (when, period int64) {
	if t := gordianTimerOf(c); t != nil {
		if gordianTimerIsFake(t) && t.when > 0 {
			return 1 << 62, 1 // synctest time: fires when the bubble is blocked
		}
		return t.when, t.period
	}
	if d := c.gordian.deadline; d != 0 && atomic.Load(&c.closed) == 0 {
		return d, 0
	}
	return 0, 0
}

// gordianParkedState classifies gp, parked (its status held or the world
// stopped), against the settle deadline.
func gordianParkedState(gp *g, deadline int64) uint8 {
	w := gp.waitreason
	if w == waitReasonSleep {
		if gp.sleepWhen > deadline {
			return gwAlive
		}
		return gwBusy
	}
	if !gordianStuckReason(w) {
		return gwBusy // I/O, GC, or another wait that ends by itself
	}
	state := uint8(gwForever)
	for sg := gp.waiting; sg != nil; sg = sg.waitlink {
		c := gordianSudogChan(sg)
		if c == nil {
			continue
		}
		when, period := gordianChanFeed(c)
		if when == 0 {
			if state == gwForever && gordianTimerOf(c) != nil {
				state = gwForeverTimer // fired or stopped: look again (gordianSureForever)
			}
			continue
		}
		if period == 0 && when <= deadline {
			return gwBusy // a timer or deadline fires within the bound
		}
		state = gwAlive
	}
	return state
}

// gordianWaitState classifies gp while the world runs. A parked goroutine's
// wait list is read with its status held (_Gscanwaiting, as the GC's stack
// scan does): it cannot be readied meanwhile, so its sudogs stay valid.
func gordianWaitState(gp *g, deadline int64) uint8 {
	switch readgstatus(gp) &^ _Gscan {
	case _Gdead:
		return gwDone
	case _Gwaiting:
	default:
		return gwBusy
	}
	state := uint8(gwBusy)
	systemstack(func() {
		if castogscanstatus(gp, _Gwaiting, _Gscanwaiting) {
			state = gordianParkedState(gp, deadline)
			casfrom_Gscanstatus(gp, _Gscanwaiting, _Gwaiting)
		}
	})
	return state
}

// gordianInScope reports whether g1 is checked: a goroutine of test idx,
// or at program exit (idx 0) any program goroutine; never self. With
// settling, program exit waits only for goroutines spawned at user sites
// (a library's server goroutine in a network poll would hold every exit).
func gordianInScope(g1, self *g, idx uint32, settling bool) bool {
	if g1 == self || g1.gordian.gid == 0 {
		return false
	}
	if idx != 0 {
		return g1.gordian.test == idx
	}
	return !settling || g1.gordian.flags&ggUserSpawn != 0
}

// gordianSettle waits until every goroutine in scope is quiet, or until
// deadline.
func gordianSettle(self *g, idx uint32, deadline int64) {
	pause := int64(50 * 1000)
	for {
		quiet := true
		ptr, n := atomicAllG()
		for i := uintptr(0); i < n && quiet; i++ {
			g1 := atomicAllGIndex(ptr, i)
			if gordianInScope(g1, self, idx, true) && gordianWaitState(g1, deadline) == gwBusy {
				quiet = false
			}
		}
		if quiet || nanotime() >= deadline {
			return
		}
		timeSleep(pause)
		if pause = 2 * pause; pause > 1000*1000 {
			pause = 1000 * 1000 // notices a goroutine settling at most 1 ms late
		}
	}
}

// gordianRecordBlocked writes, in st, one BlockedAtTestEnd (val = idx, 0 at
// program exit) per goroutine in scope blocked forever in a recorded
// operation.
func gordianRecordBlocked(st *gordianG, self *g, idx uint32, deadline int64) {
	ptr, n := atomicAllG()
	for i := uintptr(0); i < n; i++ {
		g1 := atomicAllGIndex(ptr, i)
		if !gordianInScope(g1, self, idx, false) {
			continue
		}
		b := atomic.Loaduintptr(&g1.gordian.blocked)
		if b == 0 {
			continue
		}
		r := (*gordianRecord)(unsafe.Pointer(b))
		if atomic.Load(&r.tpost) != 0 || gordianSureForever(g1, deadline) != gwForever {
			continue
		}
		gordianOne(st, gkBlockedAtTestEnd, 0, uint16(r.kind), r.site, g1.gordian.gid, idx)
	}
}

// gordianExitSettle settles the program's user goroutines before the exit
// check; it returns the deadline the check uses (0: do not check).
func gordianExitSettle(how int) int64 {
	if !gordianOn || (how != gordianExitMain && how != gordianExitOsExit) {
		return 0
	}
	gp := getg()
	if gp.m.curg != gp || gp.gordian.gid == 0 {
		return 0
	}
	gordianReleaseHolds(0)
	deadline := nanotime() + gordian.settleNs
	gordianSettle(gp, 0, deadline)
	return deadline
}

// gordianParseDuration parses Go's time.ParseDuration syntax for
// non-negative durations ("0", "500ms", "1.5s", "1m30s"; units ns, us, µs,
// ms, s, m, h) into nanoseconds.
func gordianParseDuration(s string) (int64, bool) {
	if s == "0" {
		return 0, true
	}
	if s == "" {
		return 0, false
	}
	var total float64
	for s != "" {
		i := 0
		var v, frac float64
		scale := 1.0
		digits := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			v = v*10 + float64(s[i]-'0')
			digits++
		}
		if i < len(s) && s[i] == '.' {
			for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
				frac = frac*10 + float64(s[i]-'0')
				scale *= 10
				digits++
			}
		}
		if digits == 0 {
			return 0, false
		}
		j := i
		for j < len(s) && (s[j] < '0' || s[j] > '9') && s[j] != '.' {
			j++
		}
		var unit float64
		switch s[i:j] {
		case "ns":
			unit = 1
		case "us", "µs", "μs":
			unit = 1e3
		case "ms":
			unit = 1e6
		case "s":
			unit = 1e9
		case "m":
			unit = 60e9
		case "h":
			unit = 3600e9
		default:
			return 0, false
		}
		total += (v + frac/scale) * unit
		s = s[j:]
	}
	if total > 1<<62 {
		return 0, false
	}
	return int64(total), true
}
