// A TTL cache refreshes itself in a background goroutine. Refresh takes the
// lock and then calls Len, which takes the same (non-reentrant) lock again, so
// the refresher blocks on itself forever. The test waits 50 ms for the refresh
// and then gives up; the refresher outlives the test.
//
// Expected: double-lock, occurred, at the Lock in Len. (The stuck refresher is
// also a leaked goroutine blocked on a mutex at that line; the double-lock want
// covers it, see docs/corpus.md.)
package cache

import (
	"sync"
	"testing"
	"time"
)

type entry struct {
	value   string
	expires time.Time
}

type Cache struct {
	mu      sync.Mutex
	entries map[string]entry
}

func (c *Cache) Len() int {
	c.mu.Lock() // want: double-lock occurred
	defer c.mu.Unlock()
	return len(c.entries)
}

func (c *Cache) Refresh(now time.Time) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if now.After(e.expires) {
			delete(c.entries, k)
		}
	}
	return c.Len()
}

func TestRefreshInBackground(t *testing.T) {
	now := time.Now()
	c := &Cache{entries: map[string]entry{
		"a": {"1", now.Add(-time.Minute)},
		"b": {"2", now.Add(time.Minute)},
	}}
	done := make(chan int, 1)
	go func() { done <- c.Refresh(now) }()
	select {
	case n := <-done:
		t.Logf("%d entries left", n)
	case <-time.After(50 * time.Millisecond):
		t.Log("refresh still running; not waiting")
	}
}
