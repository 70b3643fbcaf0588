// A server counts its in-flight handlers under a mutex; Shutdown closes
// done and waits on a Cond until the count is zero. A streaming handler
// pushes events to its connection: for each it checks done without
// blocking and otherwise sends it. The connection's writer, a goroutine
// the server tracks in a WaitGroup, loops on a select of done and the
// outgoing events. When Shutdown closes done after the handler has checked
// it but before its send, and the writer's select takes done, nobody
// receives: the handler blocks in its send forever, the count never
// reaches zero, and Shutdown waits forever (deadlock).
//
// A plain run pushes all three events long before Shutdown (the test lets
// the stream run for 20 ms first). Only a sleep orders the writer's last
// receive before the close of done: the other schedule, where the
// writer's select takes done first, leaves the handler's send with no
// partner (and Shutdown's Wait with no Broadcast to come).
// Expected: goroutine-leak, predicted (and confirmed by replay), at the
// handler's send.
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
		default:
			c.out <- ev // want: goroutine-leak predicted chan-send
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
