// A metrics registry guards its counters with an RWMutex. Snapshot read-locks
// it and, for an empty registry, releases the read lock and returns early; a
// later edit added a second RUnlock before that early return.
//
// Expected: unlock-of-unlocked, occurred, at the second RUnlock in the empty
// branch (fatal error: RUnlock of unlocked RWMutex). The test snapshots an
// empty registry, every run.
package metrics

import (
	"sort"
	"sync"
	"testing"
)

type Registry struct {
	mu       sync.RWMutex
	counters map[string]int64
}

func (r *Registry) Inc(name string) {
	r.mu.Lock()
	r.counters[name]++
	r.mu.Unlock()
}

func (r *Registry) Snapshot() []string {
	r.mu.RLock()
	if len(r.counters) == 0 {
		r.mu.RUnlock()
		names := []string{}
		r.mu.RUnlock() // want: unlock-of-unlocked occurred
		return names
	}
	names := make([]string, 0, len(r.counters))
	for n := range r.counters {
		names = append(names, n)
	}
	r.mu.RUnlock()
	sort.Strings(names)
	return names
}

func TestSnapshot(t *testing.T) {
	r := &Registry{counters: map[string]int64{}}
	if got := r.Snapshot(); len(got) != 0 {
		t.Fatalf("empty registry: %v", got)
	}
	r.Inc("requests")
	if got := r.Snapshot(); len(got) != 1 {
		t.Fatalf("got %v", got)
	}
}
