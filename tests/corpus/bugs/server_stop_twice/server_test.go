// A tiny request server runs an accept loop until its quit channel is closed.
// Stop closes quit and waits for the loop. The test defers Stop (the usual
// cleanup idiom) and also calls Stop explicitly to check the shutdown path, so
// the deferred call closes quit a second time.
//
// Expected: close-of-closed, occurred, at the close in Stop (both closes are on
// that line; the deferred call is the second). Deterministic: the explicit Stop
// has returned before the deferred one runs.
package server

import (
	"fmt"
	"testing"
)

type Server struct {
	requests chan string
	replies  chan string
	quit     chan struct{}
	stopped  chan struct{}
}

func Start() *Server {
	s := &Server{
		requests: make(chan string),
		replies:  make(chan string),
		quit:     make(chan struct{}),
		stopped:  make(chan struct{}),
	}
	go s.loop()
	return s
}

func (s *Server) loop() {
	defer close(s.stopped)
	for {
		select {
		case r := <-s.requests:
			s.replies <- fmt.Sprintf("ok %s", r)
		case <-s.quit:
			return
		}
	}
}

func (s *Server) Do(r string) string {
	s.requests <- r
	return <-s.replies
}

func (s *Server) Stop() {
	close(s.quit) // want: close-of-closed occurred
	<-s.stopped
}

func TestServerShutdown(t *testing.T) {
	s := Start()
	defer s.Stop()
	if got := s.Do("ping"); got != "ok ping" {
		t.Fatalf("got %q", got)
	}
	s.Stop()
}
