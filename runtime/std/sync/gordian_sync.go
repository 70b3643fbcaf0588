// Gordian recorder: the sync hooks. This file is added to package sync by
// the Gordian overlay (runtime/std in the Gordian repository); the patched
// methods of Mutex, RWMutex, WaitGroup, Once and Cond call these when
// recording (gordianOn), passing the caller's pc. The records are written by
// the runtime (runtime/gordian_sync.go). docs/trace-format.md says what is
// recorded.

package sync

import (
	"unsafe"
)

// Implemented in package runtime (gordian_sync.go).

//go:linkname gordianEnabled
func gordianEnabled() bool

//go:linkname gordianBegin
func gordianBegin(kind uint8, obj unsafe.Pointer, pc uintptr, flags uint8, val uint32, mode uint8) uintptr

//go:linkname gordianEnd
func gordianEnd(rec uintptr, flags uint8, aux uint16, val uint32)

//go:linkname gordianMarkBlocked
func gordianMarkBlocked(rec uintptr)

//go:linkname gordianMark
func gordianMark(rec uintptr, flags uint8)

//go:linkname gordianWaiting
func gordianWaiting(rec uintptr)

//go:linkname gordianStash
func gordianStash(a, b uint32)

//go:linkname gordianStashed
func gordianStashed() (uint32, uint32)

// gordianOnceHold: replay (runtime/gordian_replay.go) holds a Once.Do the
// schedule says did not run f while the Once is not done.
//
//go:linkname gordianOnceHold
func gordianOnceHold(i int) bool

// gordianRelockWait: replay (runtime/gordian_replay.go) holds a woken
// Cond.Wait here, before it relocks c.L, until its scheduled position.
//
//go:linkname gordianRelockWait
func gordianRelockWait()

// gordianOn is true when the program records a trace. It is fixed when
// package sync is initialized, before any user code runs.
var gordianOn = gordianEnabled()

// Record kinds and flags (src/gordian/trace/event.h).
const (
	gkMutexLock     = 10
	gkMutexUnlock   = 11
	gkMutexTryLock  = 12
	gkRWLock        = 13
	gkRWUnlock      = 14
	gkRLock         = 15
	gkRUnlock       = 16
	gkRWTryLock     = 17
	gkRWTryRLock    = 18
	gkWgAdd         = 19
	gkWgWait        = 20
	gkOnceDo        = 21
	gkCondWait      = 22
	gkCondSignal    = 23
	gkCondBroadcast = 24

	gfSuccess = 1 << 1
	gfFailed  = 1 << 2

	gmOneShot  = 1 << 0
	gmBlocked  = 1 << 1
	gmOpen     = 1 << 2
	gmLazyPre  = 1 << 3 // start stamp when it has to wait (gordianWaiting), else with the end stamp
	gmAckAfter = 1 << 4 // with gmOneShot: the replay's turn ends at gordianEnd
)

// ---- Mutex ----------------------------------------------------------------

// gordianMutexLock, gordianMutexTryLock and gordianMutexUnlock differ
// between Go releases: gordian_mutex_go124.go, gordian_mutex_pre124.go.

// ---- RWMutex --------------------------------------------------------------

func gordianRWLock(rw *RWMutex, pc uintptr) {
	r := gordianBegin(gkRWLock, unsafe.Pointer(rw), pc, 0, 0, gmBlocked|gmLazyPre)
	if !rw.gordianOrigTryLock() {
		gordianWaiting(r)
		rw.gordianOrigLock()
	}
	gordianEnd(r, 0, 0, 0)
}

func gordianRLock(rw *RWMutex, pc uintptr) {
	r := gordianBegin(gkRLock, unsafe.Pointer(rw), pc, 0, 0, gmBlocked|gmLazyPre)
	if !rw.gordianOrigTryRLock() {
		gordianWaiting(r)
		rw.gordianOrigRLock()
	}
	gordianEnd(r, 0, 0, 0)
}

// The unlocks read the lock's state after gordianBegin, as
// gordianMutexUnlock does (Begin may hold the goroutine under a schedule),
// and end the replay's turn only after the unlock (gmAckAfter).
func gordianRWUnlock(rw *RWMutex, pc uintptr) {
	r := gordianBegin(gkRWUnlock, unsafe.Pointer(rw), pc, 0, 0, gmOneShot|gmAckAfter)
	if rw.readerCount.Load() >= 0 {
		gordianMark(r, gfFailed) // not write-locked: Unlock will throw
	}
	rw.gordianOrigUnlock()
	gordianEnd(r, 0, 0, 0)
}

func gordianRUnlock(rw *RWMutex, pc uintptr) {
	r := gordianBegin(gkRUnlock, unsafe.Pointer(rw), pc, 0, 0, gmOneShot|gmAckAfter)
	if c := rw.readerCount.Load(); c == 0 || c == -rwmutexMaxReaders {
		gordianMark(r, gfFailed) // not read-locked: RUnlock will throw
	}
	rw.gordianOrigRUnlock()
	gordianEnd(r, 0, 0, 0)
}

func gordianRWTryLock(rw *RWMutex, pc uintptr) bool {
	// The try runs in the replay's turn (Begin waits for it) and is
	// stamped after it, as a TryLock that succeeds comes after the Unlock
	// it needed.
	r := gordianBegin(gkRWTryLock, unsafe.Pointer(rw), pc, 0, 0, gmOneShot|gmAckAfter|gmLazyPre)
	ok := rw.gordianOrigTryLock()
	var fl uint8
	if ok {
		fl = gfSuccess
	}
	gordianEnd(r, fl, 0, 0)
	return ok
}

func gordianRWTryRLock(rw *RWMutex, pc uintptr) bool {
	// The try runs in the replay's turn (Begin waits for it) and is
	// stamped after it, as a TryLock that succeeds comes after the Unlock
	// it needed.
	r := gordianBegin(gkRWTryRLock, unsafe.Pointer(rw), pc, 0, 0, gmOneShot|gmAckAfter|gmLazyPre)
	ok := rw.gordianOrigTryRLock()
	var fl uint8
	if ok {
		fl = gfSuccess
	}
	gordianEnd(r, fl, 0, 0)
	return ok
}

// ---- WaitGroup ------------------------------------------------------------

func gordianSat16(v int32) uint16 {
	if v > 32767 {
		v = 32767
	} else if v < -32768 {
		v = -32768
	}
	return uint16(int16(v))
}

// gordianWgAdd records Add (and Done, delta -1). The patched add stashes
// the counter it computed, which becomes aux; a negative counter panics
// inside add and the runtime's panic hook completes the record.
func gordianWgAdd(wg *WaitGroup, delta int, pc uintptr) {
	gordianStash(0, 0)
	r := gordianBegin(gkWgAdd, unsafe.Pointer(wg), pc, 0, uint32(int32(delta)), gmOpen)
	wg.gordianOrigAdd(delta)
	v, _ := gordianStashed()
	gordianEnd(r, 0, gordianSat16(int32(v)), uint32(int32(delta)))
}

// gordianWgCounter is called by the patched add with the new counter.
func gordianWgCounter(v int32) {
	if gordianOn {
		gordianStash(uint32(v), 0)
	}
}

func gordianWgWait(wg *WaitGroup, pc uintptr) {
	v := int32(wg.state.Load() >> 32)
	r := gordianBegin(gkWgWait, unsafe.Pointer(wg), pc, 0, uint32(v), gmBlocked|gmLazyPre)
	if v != 0 {
		gordianWaiting(r)
	}
	wg.gordianOrigWait()
	gordianEnd(r, 0, 0, uint32(v))
}

// gordianWgGo is WaitGroup.Go with Add and Done recorded at the caller of Go.
func gordianWgGo(wg *WaitGroup, f func(), pc uintptr) {
	gordianWgAdd(wg, 1, pc)
	go func() {
		defer func() {
			if x := recover(); x != nil {
				panic(x)
			}
			gordianWgAdd(wg, -1, pc)
		}()
		f()
	}()
}

// ---- Once -----------------------------------------------------------------

// gordianOnceDo is Once.Do: kSuccess when this call ran f. Its record
// counts as blocked only while it waits for o.m.
func gordianOnceDo(o *Once, f func(), pc uintptr) {
	r := gordianBegin(gkOnceDo, unsafe.Pointer(o), pc, 0, 0, 0)
	for i := 0; r != 0 && !o.gordianDone() && gordianOnceHold(i); i++ {
	}
	var fl uint8
	if !o.gordianDone() && gordianOnceSlow(o, f, r) {
		fl = gfSuccess
	}
	gordianEnd(r, fl, 0, 0)
}

func gordianOnceSlow(o *Once, f func(), r uintptr) bool {
	if r != 0 {
		gordianMarkBlocked(r)
	}
	o.m.Lock()
	if r != 0 {
		gordianMarkBlocked(0)
	}
	defer o.m.Unlock()
	if !o.gordianDone() {
		defer o.gordianSetDone()
		f()
		return true
	}
	return false
}

// ---- Cond -----------------------------------------------------------------

// gordianCondWait is Cond.Wait. val = ticket + 1; the record counts as
// blocked while the goroutine waits for its notification (not while it
// unlocks or relocks c.L).
func gordianCondWait(c *Cond, pc uintptr) {
	c.checker.check()
	t := runtime_notifyListAdd(&c.notify)
	r := gordianBegin(gkCondWait, unsafe.Pointer(c), pc, 0, t+1, 0)
	c.L.Unlock()
	if r != 0 {
		gordianMarkBlocked(r)
	}
	runtime_notifyListWait(&c.notify, t)
	if r != 0 {
		gordianMarkBlocked(0)
		gordianRelockWait()
	}
	c.L.Lock()
	gordianEnd(r, 0, 0, t+1)
}

// gordianCondSignal is Cond.Signal: val = ticket + 1 of the waiter it woke.
func gordianCondSignal(c *Cond, pc uintptr) {
	c.checker.check()
	gordianStash(0, 0)
	r := gordianBegin(gkCondSignal, unsafe.Pointer(c), pc, 0, 0, 0)
	runtime_notifyListNotifyOne(&c.notify)
	v, _ := gordianStashed()
	gordianEnd(r, 0, 0, v)
}

// gordianCondBroadcast is Cond.Broadcast: val = notify counter after, aux =
// number of tickets it woke.
func gordianCondBroadcast(c *Cond, pc uintptr) {
	c.checker.check()
	gordianStash(0, 0)
	r := gordianBegin(gkCondBroadcast, unsafe.Pointer(c), pc, 0, 0, 0)
	runtime_notifyListNotifyAll(&c.notify)
	v, n := gordianStashed()
	if n > 0xffff {
		n = 0xffff
	}
	gordianEnd(r, 0, uint16(n), v)
}
