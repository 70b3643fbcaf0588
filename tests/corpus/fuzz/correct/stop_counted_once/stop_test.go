// The shape of fuzz/bugs/stop_counted_twice done right: Stop claims the
// flag with CompareAndSwap before it counts down, so exactly one of the
// two calls calls Done, however they interleave.
package stop_counted_once

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
	if s.stopped.CompareAndSwap(false, true) {
		s.running.Done()
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
