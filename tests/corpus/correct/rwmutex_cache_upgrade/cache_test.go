// An RWMutex cache with a careful "upgrade": Get looks up under the read lock,
// releases it, computes the value without any lock, then takes the write lock
// and re-checks before storing (another goroutine may have stored it
// meanwhile). No goroutine ever asks for a lock it already holds, and there is
// only one lock, so no lock-order cycle exists. Expected: no findings.
package cache

import (
	"strconv"
	"sync"
	"testing"
)

type Cache struct {
	mu       sync.RWMutex
	data     map[int]string
	computed int
}

func (c *Cache) Get(k int) string {
	c.mu.RLock()
	v, ok := c.data[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = strconv.Itoa(k * k)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.data[k]; ok {
		return old
	}
	c.data[k] = v
	c.computed++
	return v
}

func TestCacheConcurrent(t *testing.T) {
	c := &Cache{data: map[int]string{}}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				if c.Get(k) != strconv.Itoa(k*k) {
					t.Errorf("wrong value for %d", k)
				}
			}
		}()
	}
	wg.Wait()
	if c.computed != 20 {
		t.Fatalf("stored %d values", c.computed)
	}
}
