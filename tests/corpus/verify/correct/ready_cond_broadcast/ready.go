// Ready: waiters wait on a condition under a predicate; the setter sets it
// and broadcasts under the lock.
package ready

import "sync"

type Gate struct {
	mu    sync.Mutex
	c     *sync.Cond
	ready bool
}

func Ready(n int) {
	g := &Gate{}
	g.c = sync.NewCond(&g.mu)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.mu.Lock()
			for !g.ready {
				g.c.Wait()
			}
			g.mu.Unlock()
		}()
	}
	g.mu.Lock()
	g.ready = true
	g.c.Broadcast()
	g.mu.Unlock()
	wg.Wait()
}
