// A cache refresher, done right: the test starts a background refresh,
// polls the cache (under its mutex) every 10 ms until the entries are
// there, and then waits for the refresh goroutine with a WaitGroup before
// it returns. The goroutine stores the entries, unlocks, logs how many it
// loaded with t.Logf, and calls Done.
//
// Nothing is wrong: the t.Logf happens before the Done, and the test
// returns only after Wait, so the call is ordered before the test's end in
// every schedule. gordian must report nothing.
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
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := c.refresh(src)
		t.Logf("refreshed %d entries", n)
	}()
	for i := 0; i < 100 && c.size() < len(src); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	if got := c.size(); got != len(src) {
		t.Fatalf("cache has %d entries, want %d", got, len(src))
	}
}
