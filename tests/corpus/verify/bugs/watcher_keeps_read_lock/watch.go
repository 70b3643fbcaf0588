// Watch's watcher read-locks the config once and keeps the read lock for
// its whole endless loop, so the writer's Lock waits forever while the
// watcher ticks on.
package watch

import (
	"sync"
	"time"
)

type Config struct {
	mu      sync.RWMutex
	version int
}

var seen int

func Watch() {
	c := &Config{}
	t := time.NewTicker(time.Second)
	go func() {
		c.mu.RLock()
		for range t.C {
			seen = c.version
		}
		c.mu.RUnlock()
	}()
	go func() {
		c.mu.Lock() // want: partial-deadlock predicted
		c.version++
		c.mu.Unlock()
	}()
}
