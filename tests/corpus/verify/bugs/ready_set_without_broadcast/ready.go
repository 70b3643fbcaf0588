// Start's waiter waits on a Cond for ready; the ticking loop sets ready
// but never broadcasts, so the waiter sleeps forever while the loop runs.
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
			c.Wait() // want: partial-deadlock predicted
		}
		mu.Unlock()
	}()
	for range t.C {
		mu.Lock()
		ready = true
		mu.Unlock()
	}
}
