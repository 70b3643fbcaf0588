// Limit runs n tasks, at most 2 at a time, with a channel as semaphore.
package semaphore

import "sync"

func Limit(n int) {
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			<-sem
		}()
	}
	wg.Wait()
}
