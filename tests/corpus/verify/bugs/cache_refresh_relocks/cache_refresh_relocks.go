// Refresh holds the cache's lock and calls get, which locks it again.
package cache

import "sync"

type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *Cache) get(k string) int {
	c.mu.Lock() // want: double-lock predicted
	defer c.mu.Unlock()
	return c.m[k]
}

func Refresh() int {
	c := &Cache{m: map[string]int{}}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get("a")
}
