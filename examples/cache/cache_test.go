// A two-level cache: a small hot cache in front of a larger cold cache, each
// with its own mutex. Get locks hot, then cold (to promote an entry). Evict,
// written later, locks cold, then hot (to demote an entry). The test runs a
// Get and, 50 ms later, an Evict; a normal run passes.
//
// Bug: the two methods take the two locks in opposite orders. If Get holds
// hot while Evict holds cold, each waits for the other forever.
//
// gordian reports: lock-order-deadlock, predicted, at the two acquisitions
// that would block (cold in Get, hot in Evict).
package cache

import (
	"sync"
	"testing"
	"time"
)

type level struct {
	mu   sync.Mutex
	data map[string]string
}

type Cache struct{ hot, cold level }

func New() *Cache {
	return &Cache{hot: level{data: map[string]string{}}, cold: level{data: map[string]string{}}}
}

func (c *Cache) Get(k string) (string, bool) {
	c.hot.mu.Lock()
	defer c.hot.mu.Unlock()
	if v, ok := c.hot.data[k]; ok {
		return v, true
	}
	c.cold.mu.Lock() // want: lock-order-deadlock predicted
	defer c.cold.mu.Unlock()
	v, ok := c.cold.data[k]
	if ok {
		c.hot.data[k] = v // promote
		delete(c.cold.data, k)
	}
	return v, ok
}

func (c *Cache) Evict(k string) {
	c.cold.mu.Lock()
	defer c.cold.mu.Unlock()
	c.hot.mu.Lock() // want: lock-order-deadlock predicted
	defer c.hot.mu.Unlock()
	if v, ok := c.hot.data[k]; ok {
		c.cold.data[k] = v // demote
		delete(c.hot.data, k)
	}
}

func TestGetAndEvict(t *testing.T) {
	c := New()
	c.cold.data["user:1"] = "alice"
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.Get("user:1") }()
	go func() { defer wg.Done(); time.Sleep(50 * time.Millisecond); c.Evict("user:1") }()
	wg.Wait()
	if _, ok := c.Get("user:1"); !ok {
		t.Fatal("entry lost")
	}
}
