// A stream session's receive loop takes the session lock, then the stream
// lock, and closes recvDone when it returns (deferred). Close waits for
// recvDone before it takes the stream lock, then the session lock: the
// opposite order, but never at the same time as the loop, since the close
// of recvDone happens before Close's receive from it, and so before Close's
// locks. A lock-order prediction must follow that order through the close
// and the receive. Expected: no findings.
package session_close_after_recv_done

import (
	"sync"
	"testing"
)

type session struct {
	sessionMu, streamMu sync.Mutex
	recvDone            chan struct{}
	frames              int
}

func (s *session) recvLoop() {
	defer close(s.recvDone)
	s.sessionMu.Lock()
	s.streamMu.Lock()
	s.frames++
	s.streamMu.Unlock()
	s.sessionMu.Unlock()
}

func (s *session) Close() {
	<-s.recvDone
	s.streamMu.Lock()
	s.sessionMu.Lock()
	s.frames = 0
	s.sessionMu.Unlock()
	s.streamMu.Unlock()
}

func TestCloseWaitsForTheReceiveLoop(t *testing.T) {
	s := &session{recvDone: make(chan struct{})}
	go s.recvLoop()
	s.Close()
}
