// The twin of correct/breaker_select_under_lock with a real bug: the
// breaker trips after its first call, and a tripped call returns early
// without unlocking the mutex (the Unlock is not deferred). The third call
// then waits for the mutex forever.
// Expected: goroutine-leak (mutex), occurred, at the third call's Lock.
package breaker_trip_skips_unlock

import (
	"sync"
	"testing"
	"time"
)

type breaker struct {
	mu      sync.Mutex
	calls   int
	tripped bool
}

func (b *breaker) call() {
	b.mu.Lock() // want: goroutine-leak occurred mutex
	b.calls++
	if b.tripped {
		return // forgets b.mu.Unlock()
	}
	b.tripped = true
	b.mu.Unlock()
}

func TestTripped(t *testing.T) {
	b := &breaker{}
	b.call()
	b.call()
	go b.call()
	time.Sleep(20 * time.Millisecond)
}
