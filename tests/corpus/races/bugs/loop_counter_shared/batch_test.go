// A loop whose counter is declared before the loop: since Go 1.22 each
// iteration of `for i := ...` has its own i, but `var i int; for i = ...`
// still has one variable for the whole loop (as every loop had before
// 1.22). The goroutines read i while the loop goes on to write it (i++).
// Expected: data-race occurred between the loop's increment (the write, on
// the for line) and the goroutine's read.
package batch

import (
	"sync"
	"testing"
)

func TestSendBatchItems(t *testing.T) {
	items := []string{"a", "b", "c"}
	sent := make([]string, len(items))
	var mu sync.Mutex
	var wg sync.WaitGroup
	var i int
	for i = 0; i < len(items); i++ { // want: data-race occurred
		wg.Add(1)
		go func() {
			defer wg.Done()
			idx := i
			if idx < len(items) {
				mu.Lock()
				sent[idx] = items[idx]
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
