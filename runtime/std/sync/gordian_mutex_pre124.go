// Gordian recorder: the Mutex hooks on Go 1.23, where Mutex is sync's own
// (state, sema): the patches rename its Lock, TryLock and Unlock to
// gordianOrig*, which the hooks call. gordian_mutex_go124.go says what each
// hook records.

//go:build !go1.24

package sync

import (
	"sync/atomic"
	"unsafe"
)

// gordianCallerPC is the pc in the caller of the sync method that calls it
// (Go 1.23 has no GetCallerPC outside the runtime).
//
//go:linkname gordianCallerPC
func gordianCallerPC() uintptr

func (m *Mutex) gordianState() int32 {
	return atomic.LoadInt32(&m.state)
}

func gordianMutexLock(m *Mutex, pc uintptr) {
	r := gordianBegin(gkMutexLock, unsafe.Pointer(m), pc, 0, 0, gmBlocked|gmLazyPre)
	if !m.gordianOrigTryLock() {
		gordianWaiting(r)
		m.gordianOrigLock()
	}
	gordianEnd(r, 0, 0, 0)
}

func gordianMutexTryLock(m *Mutex, pc uintptr) bool {
	// The try runs in the replay's turn (Begin waits for it) and is
	// stamped after it, as a TryLock that succeeds comes after the Unlock
	// it needed.
	r := gordianBegin(gkMutexTryLock, unsafe.Pointer(m), pc, 0, 0, gmOneShot|gmAckAfter|gmLazyPre)
	ok := m.gordianOrigTryLock()
	var fl uint8
	if ok {
		fl = gfSuccess
	}
	gordianEnd(r, fl, 0, 0)
	return ok
}

func gordianMutexUnlock(m *Mutex, pc uintptr) {
	r := gordianBegin(gkMutexUnlock, unsafe.Pointer(m), pc, 0, 0, gmOneShot|gmAckAfter)
	// The lock's state is read after gordianBegin: under a schedule (a
	// prefix, or a delay line) Begin may hold this goroutine while another
	// one unlocks, and it is the state when the Unlock runs that decides
	// whether it throws. The replay's turn ends after the unlock
	// (gmAckAfter): a goroutine held until then that took the lock between
	// this check and the unlock would turn a throwing Unlock into one that
	// releases its lock.
	if m.gordianState()&mutexLocked == 0 {
		gordianMark(r, gfFailed) // Unlock will throw "sync: unlock of unlocked mutex"
	}
	m.gordianOrigUnlock()
	gordianEnd(r, 0, 0, 0)
}
