// Watch's twin: the watcher read-locks for each read only.
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
		for range t.C {
			c.mu.RLock()
			seen = c.version
			c.mu.RUnlock()
		}
	}()
	go func() {
		c.mu.Lock()
		c.version++
		c.mu.Unlock()
	}()
}
