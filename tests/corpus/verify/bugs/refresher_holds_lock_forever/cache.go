// StartCache's refresher takes the cache's lock once and keeps it for its
// whole endless loop, so a writer that comes after it waits forever while
// the refresher ticks on.
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
		c.mu.Lock()
		for range t.C {
			c.hits = 0
		}
		c.mu.Unlock()
	}()
	go func() {
		c.mu.Lock() // want: partial-deadlock predicted
		c.hits++
		c.mu.Unlock()
	}()
}
