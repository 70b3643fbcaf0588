// Gordian recorder: the Mutex hooks on Go 1.24 and later, where Mutex
// wraps internal/sync's Mutex (m.mu) and the hooks lock that one.
// gordian_mutex_pre124.go is the same for Go 1.23.

//go:build go1.24

package sync

import "unsafe"

// mutexState reads the state word of m's internal mutex (its first field).
func (m *Mutex) gordianState() int32 {
	return *(*int32)(unsafe.Pointer(&m.mu))
}

func gordianMutexLock(m *Mutex, pc uintptr) {
	r := gordianBegin(gkMutexLock, unsafe.Pointer(m), pc, 0, 0, gmBlocked|gmLazyPre)
	if !m.mu.TryLock() {
		gordianWaiting(r)
		m.mu.Lock()
	}
	gordianEnd(r, 0, 0, 0)
}

func gordianMutexTryLock(m *Mutex, pc uintptr) bool {
	// The try runs in the replay's turn (Begin waits for it) and is
	// stamped after it, as a TryLock that succeeds comes after the Unlock
	// it needed.
	r := gordianBegin(gkMutexTryLock, unsafe.Pointer(m), pc, 0, 0, gmOneShot|gmAckAfter|gmLazyPre)
	ok := m.mu.TryLock()
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
	if m.gordianState()&1 == 0 {
		gordianMark(r, gfFailed) // Unlock will throw "sync: unlock of unlocked mutex"
	}
	m.mu.Unlock()
	gordianEnd(r, 0, 0, 0)
}
