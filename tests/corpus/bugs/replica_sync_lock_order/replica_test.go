// Two replicas sync with each other at the same time. SyncFrom locks the
// receiving replica, then the peer. The test makes both syncs hold their first
// lock before either asks for the second (a start-barrier hook, as tests do to
// force an interleaving), then waits 50 ms for them and gives up.
//
// Expected: lock-order-deadlock, occurred, at the peer Lock in SyncFrom (both
// goroutines block on that line). The barrier makes the deadlock happen in
// every run. (The two stuck goroutines are also leaked goroutines blocked on a
// mutex; the lock-order want covers them, see docs/corpus.md.)
package replica

import (
	"sync"
	"testing"
	"time"
)

type Replica struct {
	mu        sync.Mutex
	name      string
	version   int
	afterLock func() // test hook, nil in production
}

func (r *Replica) SyncFrom(peer *Replica) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.afterLock != nil {
		r.afterLock()
	}
	peer.mu.Lock() // want: lock-order-deadlock occurred
	if peer.version > r.version {
		r.version = peer.version
	}
	peer.mu.Unlock()
}

func TestSimultaneousSync(t *testing.T) {
	var barrier sync.WaitGroup
	barrier.Add(2)
	hook := func() { barrier.Done(); barrier.Wait() }
	a := &Replica{name: "a", version: 3, afterLock: hook}
	b := &Replica{name: "b", version: 5, afterLock: hook}

	done := make(chan struct{}, 2)
	go func() { a.SyncFrom(b); done <- struct{}{} }()
	go func() { b.SyncFrom(a); done <- struct{}{} }()
	for i := 0; i < 2; i++ {
		select {
		case <-done:
		case <-time.After(50 * time.Millisecond):
			t.Log("sync still running; not waiting")
			return
		}
	}
}
