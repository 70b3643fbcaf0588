// The twin of manager_close_waits_under_lock: Close stops the reaper and
// waits for it before it takes the lock, so a reaper that took a tick gets
// the lock, finishes its round and sees the stop. `gordian fuzz` finds no
// bug.
package manager_close_waits_then_locks

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
			m.mu.Lock()
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
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions = nil
}

func TestOpenAndClose(t *testing.T) {
	m := NewManager(20 * time.Millisecond)
	m.mu.Lock()
	m.sessions["a"] = time.Now().Add(time.Minute)
	m.mu.Unlock()
	m.Close()
}
