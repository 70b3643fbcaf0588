// Start's twin: the loop broadcasts after it sets ready.
package ready

import (
	"sync"
	"time"
)

func Start() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	t := time.NewTicker(time.Second)
	go func() {
		mu.Lock()
		for !ready {
			c.Wait()
		}
		mu.Unlock()
	}()
	for range t.C {
		mu.Lock()
		ready = true
		c.Broadcast()
		mu.Unlock()
	}
}
