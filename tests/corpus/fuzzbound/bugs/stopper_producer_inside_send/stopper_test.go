// A stopper runs tasks, counts them, and on Stop closes its stop channel
// and waits, on a sync.Cond, until every task has returned. A producer task
// loops: it checks stop without blocking and otherwise sends the next
// value; a consumer task loops receiving values until stop. When the
// consumer leaves on stop while the producer is inside its send, nobody
// receives: the producer blocks forever, the task count never reaches
// zero, and Stop waits forever.
//
// Every run of this test can hang (in about half of them the consumer's
// select takes stop first): a fuzzing campaign must end within its bound
// all the same and report what it found.
// Expected: goroutine-leak (chan-send), occurred, at the producer's send;
// global-deadlock, occurred, at Stop's Wait (every goroutine is blocked).
package stopper_producer_inside_send

import (
	"sync"
	"testing"
	"time"
)

type stopper struct {
	mu       sync.Mutex
	drain    *sync.Cond
	numTasks int
	stop     chan struct{}
}

func newStopper() *stopper {
	s := &stopper{stop: make(chan struct{})}
	s.drain = sync.NewCond(&s.mu)
	return s
}

func (s *stopper) runTask(f func()) {
	s.mu.Lock()
	s.numTasks++
	s.mu.Unlock()
	go func() {
		f()
		s.mu.Lock()
		s.numTasks--
		if s.numTasks == 0 {
			s.drain.Broadcast()
		}
		s.mu.Unlock()
	}()
}

func (s *stopper) Stop() {
	close(s.stop)
	s.mu.Lock()
	for s.numTasks > 0 {
		s.drain.Wait() // want: global-deadlock occurred
	}
	s.mu.Unlock()
}

func TestStopWhileProducing(t *testing.T) {
	s := newStopper()
	values := make(chan int)
	s.runTask(func() {
		for i := 0; ; i++ {
			select {
			case <-s.stop:
				return
			default:
				values <- i // want: goroutine-leak occurred chan-send
			}
		}
	})
	s.runTask(func() {
		for {
			select {
			case <-s.stop:
				return
			case <-values:
			}
		}
	})
	time.Sleep(2 * time.Millisecond)
	s.Stop()
}
