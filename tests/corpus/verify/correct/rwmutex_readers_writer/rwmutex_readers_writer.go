// Snapshot: readers under RLock, one writer under Lock.
package snapshot

import "sync"

type Table struct {
	mu sync.RWMutex
	v  int
}

func Snapshot(n int) int {
	t := &Table{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.mu.RLock()
			_ = t.v
			t.mu.RUnlock()
		}()
	}
	t.mu.Lock()
	t.v++
	t.mu.Unlock()
	wg.Wait()
	return t.v
}
