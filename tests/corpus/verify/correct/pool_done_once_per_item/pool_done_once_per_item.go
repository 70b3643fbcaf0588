// Process's twin: each worker calls Done exactly once, deferred, whether
// its item fails or not.
package pool

import (
	"errors"
	"sync"
)

func handle(x int) error {
	if x < 0 {
		return errors.New("negative")
	}
	return nil
}

func Process(items []int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	wg.Add(len(items))
	for _, it := range items {
		go func(x int) {
			defer wg.Done()
			if err := handle(x); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		}(it)
	}
	wg.Wait()
	return failed
}
