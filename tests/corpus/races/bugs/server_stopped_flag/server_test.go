// A server whose Stop sets a flag under the mutex, while the serve loop
// checks the flag without taking it: the lock on one side only orders
// nothing. (The loop is bounded so the test ends whatever the schedule.)
// Expected: data-race occurred between the locked write in Stop and the
// unlocked read in the loop.
package server

import (
	"sync"
	"testing"
	"time"
)

type Server struct {
	mu      sync.Mutex
	stopped bool
	served  int
}

func (s *Server) Serve(done chan<- struct{}) {
	for i := 0; i < 50; i++ {
		if s.stopped {
			break
		}
		s.served++
		time.Sleep(time.Millisecond)
	}
	close(done)
}

func (s *Server) Stop() {
	s.mu.Lock()
	s.stopped = true // want: data-race occurred
	s.mu.Unlock()
}

func TestStopServer(t *testing.T) {
	s := &Server{}
	done := make(chan struct{})
	go s.Serve(done)
	time.Sleep(5 * time.Millisecond)
	s.Stop()
	<-done
}
