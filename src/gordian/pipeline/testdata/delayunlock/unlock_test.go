// The test goroutine holds a lock and spawns a goroutine that unlocks it
// too; then the test unlocks it. A plain run unlocks in the test first and
// the goroutine's Unlock is the fatal one. A delay line on the test's
// Unlock holds it until the goroutine has unlocked (and blocked in its
// send): the test's Unlock, which found the lock held when it was reached,
// is the fatal one (schedule_runner_test.cc,
// ReplayEnforcement.ADelayedUnlockThatFailsIsFlagged).
package delayunlock

import (
	"sync"
	"testing"
)

func TestMutex(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	done := make(chan bool)
	go func() {
		mu.Unlock()
		done <- true
	}()
	mu.Unlock() // line 23: the Unlock the delay line names
	<-done
}

func TestRWMutexWrite(t *testing.T) {
	var mu sync.RWMutex
	mu.Lock()
	done := make(chan bool)
	go func() {
		mu.Unlock()
		done <- true
	}()
	mu.Unlock() // line 35: the Unlock the delay line names
	<-done
}

func TestRWMutexRead(t *testing.T) {
	var mu sync.RWMutex
	mu.RLock()
	done := make(chan bool)
	go func() {
		mu.RUnlock()
		done <- true
	}()
	mu.RUnlock() // line 47: the RUnlock the delay line names
	<-done
}
