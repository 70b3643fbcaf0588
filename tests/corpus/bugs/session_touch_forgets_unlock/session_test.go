// A session store refreshes sessions under a mutex. Touch returns early for an
// expired session and forgets to unlock. The janitor goroutine sweeps expired
// sessions whenever it is asked to; its next sweep blocks on the lock forever
// and the janitor outlives the test.
//
// Expected: goroutine-leak, occurred, mutex, at the janitor's Lock. The test
// calls Touch (which leaves the mutex locked) before it asks for the sweep.
package session

import (
	"sync"
	"testing"
	"time"
)

type Store struct {
	mu       sync.Mutex
	sessions map[string]time.Time
	sweeps   chan time.Time
}

func (s *Store) Touch(id string, now time.Time) bool {
	s.mu.Lock()
	exp, ok := s.sessions[id]
	if !ok || now.After(exp) {
		return false // BUG: returns with the mutex held
	}
	s.sessions[id] = now.Add(30 * time.Minute)
	s.mu.Unlock()
	return true
}

func (s *Store) janitor() {
	for now := range s.sweeps {
		s.mu.Lock() // want: goroutine-leak occurred mutex
		for id, exp := range s.sessions {
			if now.After(exp) {
				delete(s.sessions, id)
			}
		}
		s.mu.Unlock()
	}
}

func TestTouchExpired(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	s := &Store{sessions: map[string]time.Time{"old": now.Add(-time.Hour)}, sweeps: make(chan time.Time)}
	go s.janitor()
	if s.Touch("old", now) {
		t.Fatal("expired session refreshed")
	}
	s.sweeps <- now
}
