// Gordian recorder: channels and select. See gordian.go and
// docs/trace-format.md ("Exact partners").
//
// chansend, chanrecv, closechan and selectgo are renamed to *Orig by the
// patches and replaced by a dispatch that calls the wrappers below when
// recording. The wrappers write the record at the start, run the original,
// and complete the record. The value sequence numbers and the completion
// stamps are assigned by small hooks that run under the channel lock at the
// exact point a value enters or leaves the channel (gordianEnq, gordianDeq,
// gordianSendDirect, gordianRecvDirect); a parked partner gets its number
// and stamp from the goroutine that completes it.

package runtime

import (
	"internal/abi"
	"internal/runtime/atomic"
	"unsafe"
)

// gordianChan is the field hchan.gordian.
type gordianChan struct {
	id      uint32 // dense object id; 0 = not yet used by user code
	sendSeq uint32 // values that entered the channel
	recvSeq uint32 // values that left it
	// deadline (nanotime) is set on the Done channel of a context with a
	// deadline (own or inherited) by the context hooks: while the channel
	// is open, a runtime timer will close it then (gordian_settle.go).
	deadline int64
	// atimer is the timer that sends on a time.Timer/Ticker/After channel
	// when c.timer is not set: with GODEBUG asynctimerchan=1 (the default
	// of modules that say go 1.22 or older) package time does not tell the
	// runtime which channel is a timer's. Set by gordianAsyncTimer. Only
	// channels of time.Time (scanned by the GC) ever hold it.
	atimer *timer
}

// gordianAsyncTimer runs in newTimer: an asynchronous channel timer (no c)
// whose arg is its channel is linked from the channel.
func gordianAsyncTimer(t *timer, arg any, c *hchan) {
	if !gordianOn || c != nil {
		return
	}
	e := efaceOf(&arg)
	if e._type != nil && e._type.Kind() == abi.Chan && e.data != nil {
		(*hchan)(e.data).gordian.atimer = t
	}
}

// gordianTimerOf returns the timer that sends on c, or nil.
//
//go:nosplit
func gordianTimerOf(c *hchan) *timer {
	if c.timer != nil {
		return c.timer
	}
	return c.gordian.atimer
}

// gordianTimerFlag is gfTimer when a runtime timer sends on or closes c:
// a time.Timer/Ticker/After channel, or a context deadline's Done channel.
//
//go:nosplit
func gordianTimerFlag(c *hchan) uint8 {
	if c != nil && (gordianTimerOf(c) != nil || c.gordian.deadline != 0) {
		return gfTimer
	}
	return 0
}

// gordianChanID returns c's id, giving it one when the operation is at a
// user site. 0 means: do not record (or the nil channel).
func gordianChanID(c *hchan, cls uint8) uint32 {
	if c == nil {
		return 0
	}
	id := atomic.Load(&c.gordian.id)
	if id != 0 || cls&gsUser == 0 {
		return id
	}
	n := gordian.objs.Add(1)
	if atomic.Cas(&c.gordian.id, 0, n) {
		return n
	}
	return atomic.Load(&c.gordian.id)
}

// ---- hooks under the channel lock ---------------------------------------------

// gordianEnq: a sender put its value into the buffer.
//
//go:nosplit
func gordianEnq(c *hchan) {
	if !gordianOn {
		return
	}
	c.gordian.sendSeq++
	gp := getg()
	if gp.gordian.inop != 0 {
		gp.gordian.seq = c.gordian.sendSeq
		gp.gordian.stamp = gordianSelfStamp(&gp.gordian)
	}
}

// gordianDeq: a receiver took the value at the head of the buffer.
//
//go:nosplit
func gordianDeq(c *hchan) {
	if !gordianOn {
		return
	}
	c.gordian.recvSeq++
	gp := getg()
	if gp.gordian.inop != 0 {
		gp.gordian.seq = c.gordian.recvSeq
		gp.gordian.stamp = gordianSelfStamp(&gp.gordian)
	}
}

// gordianSendDirect: the current goroutine hands its value straight to the
// parked receiver sg (the buffer, if any, is empty).
//
//go:nosplit
func gordianSendDirect(c *hchan, sg *sudog) {
	if !gordianOn {
		return
	}
	c.gordian.sendSeq++
	c.gordian.recvSeq++
	k := c.gordian.sendSeq
	gp := getg()
	if gp.gordian.inop != 0 {
		gp.gordian.seq = k
		gp.gordian.stamp = gordianSelfStamp(&gp.gordian)
	}
	if rg := sg.g; rg.gordian.blocked != 0 {
		gordianCompleteParked(rg, c, k, gfDirRecv, 0)
	}
}

// gordianRecvDirect: the current goroutine receives with sg a parked
// sender. Unbuffered: the sender's value passes directly. Buffered (full):
// the receiver takes the head and the sender's value enters at the tail.
//
//go:nosplit
func gordianRecvDirect(c *hchan, sg *sudog) {
	if !gordianOn {
		return
	}
	var ks, kr uint32
	if c.dataqsiz == 0 {
		c.gordian.sendSeq++
		c.gordian.recvSeq++
		ks, kr = c.gordian.sendSeq, c.gordian.recvSeq
	} else {
		c.gordian.recvSeq++
		kr = c.gordian.recvSeq
		c.gordian.sendSeq++
		ks = c.gordian.sendSeq
	}
	if sgg := sg.g; sgg.gordian.blocked != 0 {
		gordianCompleteParked(sgg, c, ks, gfDirSend, 0)
	}
	gp := getg()
	if gp.gordian.inop != 0 {
		gp.gordian.seq = kr
		gp.gordian.stamp = gordianSelfStamp(&gp.gordian)
	}
}

// gordianCompleteParked completes, under c's lock, the record of the parked
// goroutine gp whose operation on c a partner (or a close) completes now:
// the value number and the stamp are handed to gp, and written into its
// record at once, so that the record is complete even if gp never runs
// again (the program exits first). gp rewrites the same values when it
// wakes. For a parked select, the case is the first one on c in direction
// dir (gp's wrapper corrects this if c appears twice in the select).
//
//go:nosplit
func gordianCompleteParked(gp *g, c *hchan, k uint32, dir, flags uint8) {
	p := gp.gordian.blocked
	t := gordianDoneStamp(p)
	gp.gordian.seq, gp.gordian.stamp = k, t
	r := (*gordianRecord)(unsafe.Pointer(p))
	switch r.kind {
	case gkChanSend, gkChanRecv:
		r.val = k
		r.flags |= flags
		r.tpost = t
	case gkSelect:
		id := c.gordian.id
		done := false
		for i := uintptr(1); i <= uintptr(r.aux); i++ {
			cr := (*gordianRecord)(unsafe.Pointer(p + i*gordianRecordBytes))
			cr.tpre = r.tpre
			if !done && cr.obj == id && cr.flags&dir != 0 {
				done = true
				cr.val = k
				cr.flags |= gfChosen | flags
				cr.tpost = t
				r.val = uint32(cr.aux)
			}
		}
		r.tpost = t
	}
}

// gordianClosedWake: closechan wakes gp, parked on c (send: it will panic).
//
//go:nosplit
func gordianClosedWake(c *hchan, gp *g, send bool) {
	if !gordianOn || gp.gordian.blocked == 0 {
		return
	}
	dir := uint8(gfDirRecv)
	if send {
		dir = gfDirSend
	}
	gordianCompleteParked(gp, c, 0, dir, gfClosed)
}

// gordianClosed: c has just been marked closed. The close is complete: its
// record is written at once (val, tpre, then tpost), like a parked
// partner's, so that it is complete even if the program ends before the
// closing goroutine runs again (closechan readies the goroutines it wakes
// before it returns; one of them may end the program first).
//
//go:nosplit
func gordianClosed(c *hchan) {
	if !gordianOn {
		return
	}
	gp := getg()
	if gp.gordian.inop != 0 {
		gp.gordian.seq = c.gordian.sendSeq
		gp.gordian.stamp = gordianStamp()
		if p := gp.gordian.open; p != 0 {
			if r := (*gordianRecord)(unsafe.Pointer(p)); r.kind == gkChanClose {
				r.val = gp.gordian.seq
				r.tpre = gp.gordian.stamp
				r.tpost = gp.gordian.stamp
			}
		}
	}
}

// gordianParking: the current goroutine is about to park in a channel
// operation or select (under the channel locks): its record gets its start
// stamp.
//
//go:nosplit
func gordianParking(gp *g) {
	gordianWaitStamp(gp.gordian.blocked)
}

// gordianDrain: a timer channel's stale values are thrown away; they left
// the channel without a receive.
//
//go:nosplit
func gordianDrain(c *hchan) {
	c.gordian.recvSeq += uint32(c.qcount)
}

// gordianSetPC stashes the caller pc for chanrecv (whose signature has none).
//
//go:nosplit
func gordianSetPC(pc uintptr) {
	getg().gordian.pc = pc
}

// ---- wrappers --------------------------------------------------------------------

// gordianZeroSize is gfZeroSize for a receive from c when c's elements have
// size 0: the zero value of a closed chan struct{} is the only value there
// is, so the analysis need not warn that the receive may take it for data.
//
//go:nosplit
func gordianZeroSize(c *hchan) uint8 {
	if c != nil && c.elemsize == 0 {
		return gfZeroSize
	}
	return 0
}

// gordianMakechan records ChanMake for a channel made at a user site.
func gordianMakechan(c *hchan, size int, pc uintptr) {
	if !gordianOn {
		return
	}
	st := &getg().gordian
	if st.gid == 0 || st.inop != 0 {
		return
	}
	site, cls := gordianSiteOf(st, pc-1)
	if cls&gsUser == 0 {
		return
	}
	id := gordian.objs.Add(1)
	atomic.Store(&c.gordian.id, id)
	gordianOne(st, gkChanMake, 0, 0, site, id, uint32(size))
}

func gordianChansend(c *hchan, ep unsafe.Pointer, block bool, pc uintptr) bool {
	gp := getg()
	st := &gp.gordian
	if st.gid == 0 || st.inop != 0 {
		return chansendOrig(c, ep, block, pc)
	}
	site, cls := gordianSiteOf(st, pc-1)
	id := gordianChanID(c, cls)
	if id == 0 && (c != nil || cls&gsUser == 0) {
		return chansendOrig(c, ep, block, pc)
	}
	if !block {
		choice := gordianReplayWait(st, gkSelect, site) // replay: gordian_replay.go
		p := gordianNBBegin(st, site, id, gfDirSend)
		if p == 0 {
			gordianReplayDone(st)
			return chansendOrig(c, ep, block, pc)
		}
		ok := false
		if choice != gordianReplayDefault {
			ok = chansendOrig(c, ep, block, pc)
			for i := 0; !ok && choice == 0; i++ {
				a := gordianReplayRetry(st, i, c, true)
				if a == gordianRetryStop {
					break
				}
				if a == gordianRetryPark {
					st.blocked = p // parked: a partner completes the record
					ok = chansendOrig(c, ep, true, pc)
					st.blocked = 0
					break
				}
				ok = chansendOrig(c, ep, block, pc)
			}
			gordianReplayPollEnd(st)
		} else if ok = chansendOrig(c, ep, block, pc); ok {
			// A forced default while a receiver waits or the buffer has
			// room: Go sends (gordianReplayRefuse). On a closed channel
			// the send panics, as it would in any run.
			gordianReplayRefuse(site)
		}
		gordianNBEnd(st, p, ok, false)
		gordianReplayDone(st)
		return ok
	}
	gordianReplayWait(st, gkChanSend, site) // replay: gordian_replay.go
	p := gordianAlloc(st, 1)
	if p == 0 {
		gordianReplayDone(st)
		return chansendOrig(c, ep, block, pc)
	}
	gordianPut(p, gkChanSend, 0, 0, site, 0, 0, id, 0)
	if c == nil {
		gordianWaitStamp(p) // parks forever
	}
	st.seq, st.stamp = 0, 0
	st.blocked, st.open, st.inop = p, p, 1
	ok := chansendOrig(c, ep, block, pc)
	st.blocked, st.open, st.inop = 0, 0, 0
	t := st.stamp
	if t == 0 {
		t = gordianDoneStamp(p)
	}
	gordianComplete(p, 0, st.seq, t)
	gordianReplayDone(st) // after the record is complete: see gordianReplayDone
	return ok
}

func gordianChanrecv(c *hchan, ep unsafe.Pointer, block bool) (selected, received bool) {
	gp := getg()
	st := &gp.gordian
	pc := st.pc
	st.pc = 0
	if st.gid == 0 || st.inop != 0 {
		return chanrecvOrig(c, ep, block)
	}
	var site uint32
	var cls uint8
	if pc != 0 {
		site, cls = gordianSiteOf(st, pc-1)
	}
	id := gordianChanID(c, cls)
	if id == 0 && (c != nil || cls&gsUser == 0) {
		return chanrecvOrig(c, ep, block)
	}
	if !block {
		choice := gordianReplayWait(st, gkSelect, site) // replay: gordian_replay.go
		p := gordianNBBegin(st, site, id, gfDirRecv|gordianTimerFlag(c)|gordianZeroSize(c))
		if p == 0 {
			gordianReplayDone(st)
			return chanrecvOrig(c, ep, block)
		}
		if choice != gordianReplayDefault {
			selected, received = chanrecvOrig(c, ep, block)
			for i := 0; !selected && choice == 0; i++ {
				a := gordianReplayRetry(st, i, c, false)
				if a == gordianRetryStop {
					break
				}
				if a == gordianRetryPark {
					st.blocked = p // parked: a partner completes the record
					selected, received = chanrecvOrig(c, ep, true)
					st.blocked = 0
					break
				}
				selected, received = chanrecvOrig(c, ep, block)
			}
			gordianReplayPollEnd(st)
		} else if selected, received = chanrecvOrig(c, ep, block); selected {
			// A forced default while the channel is closed, holds a
			// value or has a waiting sender: Go receives
			// (gordianReplayRefuse).
			gordianReplayRefuse(site)
		}
		gordianNBEnd(st, p, selected, selected && !received)
		gordianReplayDone(st)
		return
	}
	gordianReplayWait(st, gkChanRecv, site) // replay: gordian_replay.go
	p := gordianAlloc(st, 1)
	if p == 0 {
		gordianReplayDone(st)
		return chanrecvOrig(c, ep, block)
	}
	gordianPut(p, gkChanRecv, gordianTimerFlag(c)|gordianZeroSize(c), 0, site, 0, 0, id, 0)
	if c == nil {
		gordianWaitStamp(p) // parks forever
	}
	st.seq, st.stamp = 0, 0
	st.blocked, st.open, st.inop = p, p, 1
	selected, received = chanrecvOrig(c, ep, block)
	st.blocked, st.open, st.inop = 0, 0, 0
	t := st.stamp
	if t == 0 {
		t = gordianDoneStamp(p)
	}
	if received {
		gordianComplete(p, 0, st.seq, t)
	} else {
		gordianComplete(p, gfClosed, 0, t)
	}
	gordianReplayDone(st) // after the record is complete: see gordianReplayDone
	return
}

// gordianNBBegin records a non-blocking operation (a select with one case
// and a default) as a Select with one SelectCase.
func gordianNBBegin(st *gordianG, site, id uint32, dir uint8) uintptr {
	p := gordianAlloc(st, 2)
	if p == 0 {
		return 0
	}
	gordianPut(p+gordianRecordBytes, gkSelectCase, dir, 0, site, 0, 0, id, 0)
	gordianPut(p, gkSelect, gfHasDefault, 1, site, 0, 0, 0, 0)
	st.seq, st.stamp = 0, 0
	st.open, st.inop = p, 1
	return p
}

func gordianNBEnd(st *gordianG, p uintptr, chosen, closed bool) {
	st.open, st.inop = 0, 0
	t := st.stamp
	if t == 0 {
		t = gordianDoneStamp(p)
	}
	// The case carries the Select's stamps.
	(*gordianRecord)(unsafe.Pointer(p + gordianRecordBytes)).tpre = (*gordianRecord)(unsafe.Pointer(p)).tpre
	if !chosen {
		gordianComplete(p, 0, gordianDefaultCase, t)
		return
	}
	fl := uint8(gfChosen)
	val := st.seq
	if closed {
		fl |= gfClosed
		val = 0
	}
	gordianComplete(p+gordianRecordBytes, fl, val, t)
	gordianComplete(p, 0, 0, t)
}

func gordianClosechan(c *hchan, pc uintptr) {
	gp := getg()
	st := &gp.gordian
	if st.gid == 0 || st.inop != 0 {
		closechanOrig(c)
		return
	}
	site, cls := gordianSiteOf(st, pc-1)
	id := gordianChanID(c, cls)
	if id == 0 && (c != nil || cls&gsUser == 0) {
		closechanOrig(c)
		return
	}
	gordianReplayWait(st, gkChanClose, site) // replay: gordian_replay.go
	p := gordianAlloc(st, 1)
	if p == 0 {
		gordianReplayDone(st)
		closechanOrig(c)
		return
	}
	var fl uint8
	var val uint32
	if c != nil && atomic.Load(&c.closed) != 0 {
		fl, val = gfClosed, c.gordian.sendSeq // it will panic; sendSeq is final
	}
	gordianPut(p, gkChanClose, fl, 0, site, 0, 0, id, val)
	st.seq, st.stamp = 0, 0
	st.open, st.inop = p, 1
	closechanOrig(c)
	st.open, st.inop = 0, 0
	t := st.stamp // taken under the lock
	if t == 0 {
		t = gordianStamp()
	}
	(*gordianRecord)(unsafe.Pointer(p)).tpre = t // non-blocking: tpre = tpost
	gordianComplete(p, 0, st.seq, t)
	gordianReplayDone(st) // after the record is complete: see gordianReplayDone
}

func gordianSelectgo(cas0 *scase, order0 *uint16, pc0 *uintptr, nsends, nrecvs int, block bool, pc uintptr) (int, bool) {
	gp := getg()
	st := &gp.gordian
	if st.gid == 0 || st.inop != 0 {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	site, cls := gordianSiteOf(st, pc-1)
	n := nsends + nrecvs
	cases := (*[1 << 16]scase)(unsafe.Pointer(cas0))[:n:n]
	rec := cls&gsUser != 0
	for i := 0; !rec && i < n; i++ {
		if c := cases[i].c; c != nil && atomic.Load(&c.gordian.id) != 0 {
			rec = true
		}
	}
	if !rec {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	ncase := n
	if ncase > gordianRecsPerChunk-2 {
		ncase = gordianRecsPerChunk - 2 // a Select never spans chunks
	}
	choice := gordianReplayWait(st, gkSelect, site) // replay: gordian_replay.go
	p := gordianAlloc(st, uintptr(ncase+1))
	if p == 0 {
		gordianReplayDone(st)
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	for i := 0; i < ncase; i++ {
		dir := uint8(gfDirRecv) | gordianTimerFlag(cases[i].c) | gordianZeroSize(cases[i].c)
		if i < nsends {
			dir = gfDirSend
		}
		id := gordianChanID(cases[i].c, cls)
		gordianPut(p+uintptr(i+1)*gordianRecordBytes, gkSelectCase, dir, uint16(i), site, 0, 0, id, 0)
	}
	var fl uint8
	if !block {
		fl = gfHasDefault
	}
	gordianPut(p, gkSelect, fl, uint16(ncase), site, 0, 0, 0, 0)
	st.seq, st.stamp = 0, 0
	st.blocked, st.open, st.inop = p, p, 1
	casi, recvOK := gordianReplaySelect(cas0, order0, pc0, nsends, nrecvs, block, choice, site)
	st.blocked, st.open, st.inop = 0, 0, 0
	tp := st.stamp
	if tp == 0 {
		tp = gordianDoneStamp(p)
	}
	// The cases carry the Select's stamps (the chosen one its tpost too).
	tpre := (*gordianRecord)(unsafe.Pointer(p)).tpre
	for i := 0; i < ncase; i++ {
		(*gordianRecord)(unsafe.Pointer(p + uintptr(i+1)*gordianRecordBytes)).tpre = tpre
	}
	sel := uint32(gordianDefaultCase)
	for i := 0; i < ncase; i++ {
		if i != casi { // a partner guessed another case on the same channel
			cr := (*gordianRecord)(unsafe.Pointer(p + uintptr(i+1)*gordianRecordBytes))
			if cr.flags&gfChosen != 0 {
				cr.flags &^= gfChosen | gfClosed
				cr.val, cr.tpost = 0, 0
			}
		}
	}
	if casi >= 0 {
		sel = uint32(casi)
		if casi < ncase {
			cf := uint8(gfChosen)
			val := st.seq
			if casi >= nsends && !recvOK {
				cf |= gfClosed
				val = 0
			}
			gordianComplete(p+uintptr(casi+1)*gordianRecordBytes, cf, val, tp)
		}
	}
	gordianComplete(p, 0, sel, tp)
	gordianReplayDone(st) // after the record is complete: see gordianReplayDone
	return casi, recvOK
}

// gordianBlockForever records `select {}`: a Select with no cases that
// never completes.
func gordianBlockForever(pc uintptr) {
	if !gordianOn {
		return
	}
	st := &getg().gordian
	if st.gid == 0 || st.inop != 0 {
		return
	}
	site, cls := gordianSiteOf(st, pc-1)
	if cls&gsUser == 0 {
		return
	}
	p := gordianAlloc(st, 1)
	if p == 0 {
		return
	}
	gordianPut(p, gkSelect, 0, 0, site, gordianStamp(), 0, 0, 0)
	st.blocked = p
}
