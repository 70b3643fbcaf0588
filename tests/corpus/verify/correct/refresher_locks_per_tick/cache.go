// StartCache's twin: the refresher locks for each refresh only.
package cache

import (
	"sync"
	"time"
)

type Cache struct {
	mu   sync.Mutex
	hits int
}

func StartCache() {
	c := &Cache{}
	t := time.NewTicker(time.Minute)
	go func() {
		for range t.C {
			c.mu.Lock()
			c.hits = 0
			c.mu.Unlock()
		}
	}()
	go func() {
		c.mu.Lock()
		c.hits++
		c.mu.Unlock()
	}()
}
