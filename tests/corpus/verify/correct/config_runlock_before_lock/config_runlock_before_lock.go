// Config.Get's twin: on a miss it releases the read lock before taking the
// write lock, and checks again under it.
package config

import "sync"

type Config struct {
	mu     sync.RWMutex
	values map[string]int
}

func (c *Config) Get(k string) int {
	c.mu.RLock()
	v, ok := c.values[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.values[k]; ok {
		return v
	}
	c.values[k] = 1
	return 1
}

func Lookup(k string) int {
	c := &Config{values: map[string]int{}}
	done := make(chan bool)
	go func() {
		c.Get(k)
		done <- true
	}()
	v := c.Get(k)
	<-done
	return v
}
