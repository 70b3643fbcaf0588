// The twin of bugs/registry_cleared_after_unlock: Close drops the entries
// under the lock, so whichever of Add and Close locks first, the lock
// orders every access of the entries. `gordian fuzz -race` finds no race
// in either order.
package registry_cleared_under_lock

import (
	"sync"
	"testing"
	"time"
)

type Registry struct {
	mu      sync.Mutex
	closed  bool
	entries []string
}

func (r *Registry) Add(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.entries) >= 8 || r.closed {
		return false
	}
	r.entries = append(r.entries, name)
	return true
}

func (r *Registry) Close() {
	r.mu.Lock()
	r.closed = true
	r.entries = nil
	r.mu.Unlock()
}

func TestAddThenClose(t *testing.T) {
	r := &Registry{}
	done := make(chan bool)
	go func() { done <- r.Add("a") }()
	time.Sleep(10 * time.Millisecond)
	r.Close()
	<-done
}
