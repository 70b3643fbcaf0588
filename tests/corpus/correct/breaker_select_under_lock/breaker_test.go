// A circuit breaker counts calls under its mutex and, inside the critical
// section, reports each call on a buffered channel in a select that also
// watches a stop channel. Three calls run at once and the test returns
// without waiting for them. Each call's Unlock is deferred and its select
// always has room to send, so every call returns and the next one gets the
// mutex: no goroutine is blocked forever when the test ends, whatever the
// order of the calls (fuzz/correct/breaker_select_under_lock is the same
// shape for gordian fuzz, whose schedules may hold a call inside the
// critical section past the end of the test). Expected: no findings.
package breaker_select_under_lock

import (
	"sync"
	"testing"
	"time"
)

type breaker struct {
	mu      sync.Mutex
	calls   int
	reports chan int
	stop    chan struct{}
}

func (b *breaker) call() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	select {
	case b.reports <- b.calls:
	case <-b.stop:
	}
}

func TestThreeCallsAtOnce(t *testing.T) {
	b := &breaker{reports: make(chan int, 8), stop: make(chan struct{})}
	for i := 0; i < 3; i++ {
		go b.call()
	}
	time.Sleep(10 * time.Millisecond)
}
