// A cache refresher: the test starts a background refresh and polls the
// cache (under its mutex) every 10 ms until the entries are there, as
// "eventually" assertions do, then returns. The refresh goroutine stores the
// entries, unlocks, and logs how many it loaded with t.Logf.
//
// Expected: testing-after-end, predicted and confirmed, at the t.Logf.
// Nothing orders the call before the test's end: the poll that sees the
// entries is ordered after the refresh's Unlock, but the t.Logf comes after
// that Unlock and the test waits for nothing else. In a plain run the call
// lands while the test sleeps between polls, so it passes; in a schedule
// where the refresh goroutine is held just before its t.Logf, the test sees
// the entries, returns, and the call comes after its end (Go panics with
// "Log in goroutine after TestRefreshLoadsEntries has completed" once the
// test has completed). The confirmation replays exactly that schedule.
package refresher

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type cache struct {
	mu      sync.Mutex
	entries map[string]string
}

func (c *cache) refresh(src map[string]string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = make(map[string]string, len(src))
	for k, v := range src {
		c.entries[k] = v
	}
	return len(c.entries)
}

func (c *cache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func TestRefreshLoadsEntries(t *testing.T) {
	src := make(map[string]string)
	for i := 0; i < 8; i++ {
		src[fmt.Sprintf("k%d", i)] = fmt.Sprintf("v%d", i)
	}
	c := &cache{}
	go func() {
		n := c.refresh(src)
		t.Logf("refreshed %d entries", n) // want: testing-after-end predicted
	}()
	for i := 0; i < 100 && c.size() < len(src); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := c.size(); got != len(src) {
		t.Fatalf("cache has %d entries, want %d", got, len(src))
	}
}
