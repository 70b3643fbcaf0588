// Count: n workers increment a counter under a mutex.
package counter

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func Count(n int) int {
	c := &Counter{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
		}()
	}
	wg.Wait()
	return c.n
}
