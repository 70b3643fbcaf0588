// A session manager expires sessions on every tick of a ticker, in a
// reaper goroutine that takes the manager's lock to do it. Close takes the
// lock, tells the reaper to stop, and waits for the reaper to finish, all
// while holding the lock. When the reaper has taken a tick and Close takes
// the lock before the reaper does, the reaper waits for the lock and Close
// waits for the reaper: neither moves again (a deadlock of a channel and a
// mutex).
//
// It takes three orderings at once: the tick before the stop, Close's Lock
// before the reaper's, and Close's wait after the reaper left its select.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the test closes the manager long before the first tick, so the reaper
// always leaves on stop and its trace has no Lock to reorder. What finds
// it: the select strategy's preference for the ticker's case, then the
// lock order of that run.
package manager_close_waits_under_lock

import (
	"sync"
	"testing"
	"time"
)

type Manager struct {
	mu       sync.Mutex
	sessions map[string]time.Time
	stop     chan struct{}
	done     chan struct{}
}

func NewManager(every time.Duration) *Manager {
	m := &Manager{sessions: map[string]time.Time{}, stop: make(chan struct{}), done: make(chan struct{})}
	go m.reap(every)
	return m
}

func (m *Manager) reap(every time.Duration) {
	defer close(m.done)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-tick.C:
			m.mu.Lock() // want: mixed-deadlock occurred
			for id, until := range m.sessions {
				if now.After(until) {
					delete(m.sessions, id)
				}
			}
			m.mu.Unlock()
		}
	}
}

func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	close(m.stop)
	<-m.done // want: mixed-deadlock occurred
	m.sessions = nil
}

func TestOpenAndClose(t *testing.T) {
	m := NewManager(20 * time.Millisecond)
	m.mu.Lock()
	m.sessions["a"] = time.Now().Add(time.Minute)
	m.mu.Unlock()
	m.Close()
}
