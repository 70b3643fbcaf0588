// A registry refuses new entries once closed. Add checks its capacity and
// the closed flag under the lock; Close sets the flag under the lock but
// drops the entries after unlocking. When Add's Lock comes after Close's
// Unlock, the lock orders the flag, not the drop: Add's read of the entries
// and Close's write of them are unordered (data race). When Add comes
// first, Close's Lock orders Add's read before the drop, and all is well.
//
// Why `go test -race` and `gordian test -race` do not show it: the test
// lets the adder run first (it settles for 10 ms before closing), so Add
// always locks first. What finds it: `gordian fuzz -race` holding the
// adder before its Lock (a delay point) or letting the closer's Lock go
// first, so Close's Unlock comes before Add's Lock.
package registry_cleared_after_unlock

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
	r.mu.Unlock()
	r.entries = nil // want: data-race occurred
}

func TestAddThenClose(t *testing.T) {
	r := &Registry{}
	done := make(chan bool)
	go func() { done <- r.Add("a") }()
	time.Sleep(10 * time.Millisecond) // the adder has run by now
	r.Close()
	<-done
}
