// Goroutines that run (not blocked, not asleep) while the replay's cursor
// waits for their operation (schedule_runner_test.cc,
// ReplayEnforcement.ARunningGoroutineGetsMoreThanOneStallWindow and
// ReplayEnforcement.AGoroutineThatSpinsForeverIsStillSkipped).
package busyhead

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The goroutine computes for 50 ms, then sends: it is on its way to the
// send the whole time.
func TestCrunchThenSend(t *testing.T) {
	ch := make(chan int)
	go func() {
		n := 0
		for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
			n++
		}
		ch <- n
	}()
	<-ch
}

// The goroutine spins until main sets a flag, which main does only after
// its Lock; a schedule that puts the send before that Lock can only be
// followed by skipping the send.
func TestSpinUntilFlag(t *testing.T) {
	var flag atomic.Bool
	var mu sync.Mutex
	ch := make(chan int)
	go func() {
		n := 0
		for !flag.Load() {
			n++
		}
		ch <- n
	}()
	mu.Lock()
	flag.Store(true)
	mu.Unlock()
	<-ch
}
