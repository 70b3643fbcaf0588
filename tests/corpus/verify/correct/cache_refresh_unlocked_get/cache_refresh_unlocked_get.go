// Refresh's twin: get is called after the lock is released.
package cache

import "sync"

type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *Cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func Refresh() int {
	c := &Cache{m: map[string]int{}}
	c.mu.Lock()
	c.m["a"] = 1
	c.mu.Unlock()
	return c.get("a")
}
