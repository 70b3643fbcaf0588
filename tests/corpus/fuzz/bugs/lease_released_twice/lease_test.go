// A lease is a mutex held while a client owns a resource, with an atomic
// `held` flag beside it. The owner releases it when done; a reaper that
// expires leases releases it too if it is still held. Release checks the
// flag, unlocks, then clears the flag: when the reaper checks between the
// owner's Unlock and its Store, both unlock, and the second Unlock is a
// fatal error (unlock of unlocked mutex).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the reaper comes 20 ms after the owner (the test), whose release takes
// nanoseconds, so the reaper always finds the flag clear. The flag is an
// atomic the recorder does not see: the trace holds one Lock and one
// Unlock, and no reordering of them unlocks twice. What finds it: a delay
// point (the delay strategy) that holds the owner at its Unlock until the
// reaper has checked the flag; both then unlock, and the owner's Unlock,
// which found the lock held when the delay point stopped it, is the fatal
// one (the recorder reads the lock's state after the hold: read before it,
// this bug was a test failure with no finding, docs/fuzzing-schedules.md).
package lease_released_twice

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type lease struct {
	mu   sync.Mutex
	held atomic.Bool
}

func (l *lease) Acquire() {
	l.mu.Lock()
	l.held.Store(true)
}

func (l *lease) Release() {
	if l.held.Load() {
		l.mu.Unlock() // want: unlock-of-unlocked occurred
		l.held.Store(false)
	}
}

func TestLeaseReleasedByOwnerAndReaper(t *testing.T) {
	var l lease
	l.Acquire()
	go func() { // the reaper, expiring leases in the background
		time.Sleep(20 * time.Millisecond)
		l.Release()
	}()
	l.Release() // the owner, done with the resource
}
