// A circuit breaker counts calls under its mutex and reports each one on a
// buffered channel inside the critical section, in a select that also
// watches a stop channel. Two calls run at once; the test does not wait
// for them (it sleeps briefly and returns). The second call waits for the
// mutex until the first returns, which it always does: the deferred
// Unlock runs after the select, and the select's send always has room.
//
// A fuzzing schedule may hold the first call inside the critical section
// (a preference for the stop case, polled until its time is up; a delay
// point) past the end of the test. The second call then waits for the
// mutex when the test ends, but only because the schedule holds the
// first: the schedule lets every hold go when its test ends, so neither is
// "blocked forever". Expected: no findings, under gordian test and gordian
// fuzz.
package breaker_select_under_lock

import (
	"sync"
	"testing"
	"time"
)

type breaker struct {
	mu     sync.Mutex
	calls  int
	counts chan int
	stop   chan struct{}
}

func (b *breaker) call() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	select {
	case b.counts <- b.calls:
	case <-b.stop:
	}
}

func TestConcurrentCalls(t *testing.T) {
	b := &breaker{counts: make(chan int, 16), stop: make(chan struct{})}
	go b.call()
	go b.call()
	time.Sleep(20 * time.Millisecond)
}
