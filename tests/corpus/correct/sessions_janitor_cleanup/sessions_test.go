// A session store expires idle sessions from a janitor goroutine that wakes
// on every tick of a time.Ticker. On each tick the janitor first checks its
// stop channel (without blocking) and, once it is closed, stops the ticker
// and returns. The test closes the stop channel in t.Cleanup, which runs
// after the test function returns; the janitor notices on its next tick.
// When the test function returns, and usually still when the test binary
// exits, the janitor is parked receiving from the live ticker's channel: the
// runtime will send on it again, so it is not blocked forever.
// Expected: no findings.
package sessions

import (
	"sync"
	"testing"
	"time"
)

type Store struct {
	mu       sync.Mutex
	lastSeen map[string]time.Time
	idle     time.Duration
	stop     chan struct{}
}

func NewStore(idle, every time.Duration) *Store {
	s := &Store{lastSeen: map[string]time.Time{}, idle: idle, stop: make(chan struct{})}
	go s.janitor(time.NewTicker(every))
	return s
}

func (s *Store) janitor(tick *time.Ticker) {
	for now := range tick.C {
		select {
		case <-s.stop:
			tick.Stop()
			return
		default:
		}
		s.expire(now)
	}
}

func (s *Store) expire(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, seen := range s.lastSeen {
		if now.Sub(seen) > s.idle {
			delete(s.lastSeen, id)
		}
	}
}

func (s *Store) Touch(id string) {
	s.mu.Lock()
	s.lastSeen[id] = time.Now()
	s.mu.Unlock()
}

func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lastSeen)
}

// Close stops the janitor at its next tick.
func (s *Store) Close() { close(s.stop) }

func TestIdleSessionExpires(t *testing.T) {
	s := NewStore(20*time.Millisecond, 25*time.Millisecond)
	t.Cleanup(s.Close)
	s.Touch("alice")
	if s.Len() != 1 {
		t.Fatal("session not stored")
	}
	deadline := time.Now().Add(time.Second)
	for s.Len() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("idle session never expired")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
