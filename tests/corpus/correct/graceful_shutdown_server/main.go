// Graceful shutdown: an accept loop takes connections from a channel and
// starts one handler per connection (tracked by a WaitGroup). Shutdown closes
// the quit channel; the accept loop stops accepting, waits for in-flight
// handlers and then closes `stopped`. main sends every connection before it
// calls Shutdown, and each send completes because the accept loop receives
// until quit is closed, so no send is left without a receiver.
// Expected: no findings.
package main

import (
	"fmt"
	"sync"
)

type Conn struct{ ID int }

type Server struct {
	conns   chan Conn
	quit    chan struct{}
	stopped chan struct{}
	mu      sync.Mutex
	served  []int
}

func (s *Server) handle(c Conn) {
	s.mu.Lock()
	s.served = append(s.served, c.ID)
	s.mu.Unlock()
}

func (s *Server) acceptLoop() {
	var handlers sync.WaitGroup
	defer close(s.stopped)
	defer handlers.Wait()
	for {
		select {
		case c := <-s.conns:
			handlers.Add(1)
			go func() {
				defer handlers.Done()
				s.handle(c)
			}()
		case <-s.quit:
			return
		}
	}
}

func (s *Server) Shutdown() {
	close(s.quit)
	<-s.stopped
}

func main() {
	s := &Server{conns: make(chan Conn), quit: make(chan struct{}), stopped: make(chan struct{})}
	go s.acceptLoop()
	for i := 1; i <= 5; i++ {
		s.conns <- Conn{ID: i}
	}
	s.Shutdown()
	s.mu.Lock()
	fmt.Println("served", len(s.served), "connections before shutdown")
	s.mu.Unlock()
}
