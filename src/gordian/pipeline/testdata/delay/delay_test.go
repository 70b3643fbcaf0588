// Main spawns a goroutine and locks a mutex at once: a plain run almost
// always locks first. A delay line on main's Lock holds it until the
// goroutine has locked, unlocked and blocked in its send
// (schedule_runner_test.cc, ReplayEnforcement.ADelayLineHoldsTheOperation).
package delay

import (
	"sync"
	"testing"
)

func TestDelay(t *testing.T) {
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	mu.Lock() // line 20: the Lock the test's delay line names
	mu.Unlock()
	<-done
}
