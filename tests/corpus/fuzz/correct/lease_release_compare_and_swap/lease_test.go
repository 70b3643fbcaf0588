// The shape of fuzz/bugs/lease_released_twice done right: Release clears
// the flag with CompareAndSwap before it unlocks, so only the caller that
// cleared it unlocks, however the owner and the reaper interleave.
package lease_release_compare_and_swap

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
	if l.held.CompareAndSwap(true, false) {
		l.mu.Unlock()
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
