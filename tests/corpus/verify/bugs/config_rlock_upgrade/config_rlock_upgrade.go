// Config.Get reads under RLock and, on a miss, takes the write lock to fill
// the entry without releasing the read lock first: an RWMutex cannot be
// upgraded, so Lock waits for its own reader for ever.
package config

import "sync"

type Config struct {
	mu     sync.RWMutex
	values map[string]int
}

func (c *Config) Get(k string) int {
	c.mu.RLock()
	v, ok := c.values[k]
	if !ok {
		c.mu.Lock() // want: double-lock predicted
		c.values[k] = 1
		v = 1
		c.mu.Unlock()
	}
	c.mu.RUnlock()
	return v
}

func Lookup(k string) int {
	c := &Config{values: map[string]int{}}
	return c.Get(k)
}
