// The twin of bugs/server_drain_strands_stream: the handler's send is a
// select on the send and done, so a handler that checked done before
// Shutdown closed it and then finds the writer gone leaves on done; the
// in-flight count reaches zero and Shutdown returns. Expected: no findings.
package server

import (
	"sync"
	"testing"
	"time"
)

type Server struct {
	mu       sync.Mutex
	drained  *sync.Cond
	inflight int
	done     chan struct{}
	writers  sync.WaitGroup
}

type conn struct {
	out  chan string
	sent []string
}

func (s *Server) serve(h func()) {
	s.mu.Lock()
	s.inflight++
	s.mu.Unlock()
	go func() {
		h()
		s.mu.Lock()
		if s.inflight--; s.inflight == 0 {
			s.drained.Broadcast()
		}
		s.mu.Unlock()
	}()
}

func (s *Server) accept() *conn {
	c := &conn{out: make(chan string)}
	s.writers.Add(1)
	go func() {
		defer s.writers.Done()
		for {
			select {
			case <-s.done:
				return
			case ev := <-c.out:
				c.sent = append(c.sent, ev)
			}
		}
	}()
	return c
}

func (s *Server) stream(c *conn, events []string) {
	for _, ev := range events {
		select {
		case <-s.done:
			return
		case c.out <- ev:
		}
	}
}

func (s *Server) Shutdown() {
	close(s.done)
	s.mu.Lock()
	for s.inflight > 0 {
		s.drained.Wait()
	}
	s.mu.Unlock()
	s.writers.Wait()
}

func TestShutdownDrainsStreams(t *testing.T) {
	s := &Server{done: make(chan struct{})}
	s.drained = sync.NewCond(&s.mu)
	c := s.accept()
	s.serve(func() { s.stream(c, []string{"joined", "moved", "left"}) })
	time.Sleep(20 * time.Millisecond)
	s.Shutdown()
	t.Logf("sent %v", c.sent)
}
