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
	ok := m.mu.TryLock()
	var fl uint8
	if ok {
		fl = gfSuccess
	}
	gordianBegin(gkMutexTryLock, unsafe.Pointer(m), pc, fl, 0, gmOneShot)
	return ok
}

func gordianMutexUnlock(m *Mutex, pc uintptr) {
	r := gordianBegin(gkMutexUnlock, unsafe.Pointer(m), pc, 0, 0, gmOneShot)
	// The lock's state is read after gordianBegin: under a schedule (a
	// prefix, or a delay line) Begin may hold this goroutine while another
	// one unlocks, and it is the state when the Unlock runs that decides
	// whether it throws.
	if m.gordianState()&1 == 0 {
		gordianEnd(r, gfFailed, 0, 0) // Unlock will throw "sync: unlock of unlocked mutex"
	}
	m.mu.Unlock()
}

