// Gordian recorder: the runtime side of the sync hooks (package sync's
// gordian_sync.go calls these through linknames), and the Cond ticket hooks
// in sema.go. See gordian.go.

package runtime

import "unsafe"

// Modes of sync_gordianBegin.
const (
	gmOneShot = 1 << 0 // complete now: tpre == tpost
	gmBlocked = 1 << 1 // the goroutine may park in this operation
	gmOpen    = 1 << 2 // a panic completes the record (kFailed)
	gmLazyPre = 1 << 3 // the start stamp waits for sync_gordianWaiting (or End)
	// With gmOneShot: the replay's turn ends at End, not at Begin. An
	// Unlock's outcome is decided by the lock's state when the unlock
	// itself runs, after Begin; a goroutine that the schedule holds until
	// this turn ends must not take the lock in between.
	gmAckAfter = 1 << 4
)

// Object classes of the address table (gordianObjID).
const (
	gcMutex   = 1
	gcRWMutex = 2
	gcWaitGrp = 3
	gcOnce    = 4
	gcCond    = 5
)

func gordianSyncClass(kind uint8) uint32 {
	switch kind {
	case gkMutexLock, gkMutexUnlock, gkMutexTryLock:
		return gcMutex
	case gkRWLock, gkRWUnlock, gkRLock, gkRUnlock, gkRWTryLock, gkRWTryRLock:
		return gcRWMutex
	case gkWgAdd, gkWgWait:
		return gcWaitGrp
	case gkOnceDo:
		return gcOnce
	}
	return gcCond
}

//go:linkname sync_gordianEnabled sync.gordianEnabled
func sync_gordianEnabled() bool { return gordianOn }

// sync_gordianBegin writes the record of a sync operation at obj called
// from pc (a return address) and returns it, or 0 when the operation is not
// recorded.
//
//go:linkname sync_gordianBegin sync.gordianBegin
func sync_gordianBegin(kind uint8, obj unsafe.Pointer, pc uintptr, flags uint8, val uint32, mode uint8) uintptr {
	if !gordianOn {
		return 0
	}
	gp := getg()
	st := &gp.gordian
	if st.gid == 0 || st.inop != 0 {
		return 0
	}
	site, cls := gordianSiteOf(st, pc-1)
	cl := gordianSyncClass(kind)
	if cls&gsInternal != 0 && (cl == gcMutex || cl == gcRWMutex) {
		return 0 // the Mutex inside RWMutex and Once, Cond.Wait's unlock/relock
	}
	id := gordianObjID(obj, cl, cls&gsUser != 0)
	if id == 0 {
		return 0
	}
	ch := gordianReplayWait(st, kind, site) // replay: gordian_replay.go
	if kind == gkOnceDo {
		gordianReplayOnce(st, ch)
	}
	p := gordianAlloc(st, 1)
	if p == 0 {
		gordianReplayDone(st)
		return 0
	}
	var t, tpost uint32
	if mode&gmLazyPre == 0 {
		t = gordianStamp()
	}
	if mode&gmOneShot != 0 {
		tpost = t
	}
	gordianPut(p, kind, flags, 0, site, t, tpost, id, val)
	if mode&(gmOneShot|gmAckAfter) == gmOneShot || kind == gkOnceDo {
		gordianReplayDone(st) // no completion to wait for (Once: f may record)
	}
	if mode&gmBlocked != 0 {
		st.blocked = p
	}
	if mode&gmOpen != 0 {
		st.open = p
	}
	return p
}

// sync_gordianEnd completes a record from sync_gordianBegin: flags are
// or-ed in, aux and val replace the old ones. Blocking kinds get a new
// stamp; the others keep tpost = tpre.
//
//go:linkname sync_gordianEnd sync.gordianEnd
func sync_gordianEnd(p uintptr, flags uint8, aux uint16, val uint32) {
	if p == 0 {
		return
	}
	st := &getg().gordian
	if st.blocked == p {
		st.blocked = 0
	}
	if st.open == p {
		st.open = 0
	}
	r := (*gordianRecord)(unsafe.Pointer(p))
	r.aux = aux
	t := r.tpre
	if t == 0 && !gordianBlockingKind(r.kind) { // a TryLock stamped after its try
		t = gordianStamp()
		r.tpre = t
	}
	if gordianBlockingKind(r.kind) {
		if r.tpost != 0 {
			t = r.tpost // completed by the goroutine that woke it
		} else {
			t = gordianDoneStamp(p)
		}
	}
	gordianComplete(p, flags, val, t)
	gordianReplayDone(st) // replay: gordian_replay.go
}

// sync_gordianMark or-s flags into record p without completing it or
// ending the replay's turn (an Unlock about to throw: the throw ends the
// program, and no held goroutine may run before it).
//
//go:linkname sync_gordianMark sync.gordianMark
func sync_gordianMark(p uintptr, flags uint8) {
	if p != 0 {
		(*gordianRecord)(unsafe.Pointer(p)).flags |= flags
	}
}

// sync_gordianWaiting: the operation of record p (begun with gmLazyPre)
// is about to wait; it gets its start stamp.
//
//go:linkname sync_gordianWaiting sync.gordianWaiting
func sync_gordianWaiting(p uintptr) {
	gordianWaitStamp(p)
}

// sync_gordianMarkBlocked sets (p != 0) or clears the goroutine's blocked
// record around the part of an operation that parks (Cond.Wait, Once.Do).
//
//go:linkname sync_gordianMarkBlocked sync.gordianMarkBlocked
func sync_gordianMarkBlocked(p uintptr) {
	getg().gordian.blocked = p
}

// sync_gordianStash sets the goroutine's stashed numbers (WaitGroup
// counter, Cond tickets); sync_gordianStashed reads them.
//
//go:linkname sync_gordianStash sync.gordianStash
func sync_gordianStash(a, b uint32) {
	st := &getg().gordian
	st.seq, st.seq2 = a, b
}

//go:linkname sync_gordianStashed sync.gordianStashed
func sync_gordianStashed() (uint32, uint32) {
	st := &getg().gordian
	return st.seq, st.seq2
}

// gordianReadied runs in readyWithTime (sema.go) when a semaphore or notify
// list wakes gp. A WaitGroup.Wait is complete at that moment: its record is
// completed now, so that it is complete even if gp never runs again before
// the program exits. (A woken Lock still has to take the lock, and a woken
// Cond.Wait to relock; they complete themselves.)
//
//go:nosplit
func gordianReadied(gp *g) {
	if p := gp.gordian.blocked; p != 0 && gordianOn {
		r := (*gordianRecord)(unsafe.Pointer(p))
		if r.kind == gkWgWait && r.tpost == 0 {
			r.tpost = gordianDoneStamp(p)
		}
	}
}

// gordianNotifyOne runs in notifyListNotifyOne under the list lock: the
// signal notifies ticket v-1.
//
//go:nosplit
func gordianNotifyOne(v uint32) {
	st := &getg().gordian
	st.seq, st.seq2 = v, 1
}

// gordianNotifyAll runs in notifyListNotifyAll under the list lock: the
// broadcast notifies tickets [old, wait). It returns wait.
//
//go:nosplit
func gordianNotifyAll(old, wait uint32) uint32 {
	st := &getg().gordian
	st.seq, st.seq2 = wait, wait-old
	return wait
}
