// A service counts itself in a WaitGroup while it runs; Stop marks it
// stopped and takes it off the count. Stop is called twice, by the signal
// handler and by the cleanup 20 ms later, and checks an atomic flag first
// so that only one call counts. But it counts down before it sets the
// flag: when the second call checks between the first's Done and its
// Store, both count down and the second Done panics (negative WaitGroup
// counter).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the first call's check, Done and Store take nanoseconds, so the second
// always finds the flag set and does nothing. The flag is an atomic the
// recorder does not see: the trace holds one Done for one Add, and no
// order of those drives the counter below zero. What finds it: a delay
// point (the delay strategy) that holds the first call at its Done until
// the second has checked the flag; both then count down.
package stop_counted_twice

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type service struct {
	stopped atomic.Bool
	running sync.WaitGroup
}

func (s *service) Stop() {
	if !s.stopped.Load() {
		s.running.Done() // want: negative-waitgroup occurred
		s.stopped.Store(true)
	}
}

func TestStopCalledTwice(t *testing.T) {
	s := &service{}
	s.running.Add(1)
	var callers sync.WaitGroup
	callers.Add(2)
	go func() { // the signal handler
		defer callers.Done()
		s.Stop()
	}()
	go func() { // the cleanup
		defer callers.Done()
		time.Sleep(20 * time.Millisecond)
		s.Stop()
	}()
	s.running.Wait()
	callers.Wait()
}
