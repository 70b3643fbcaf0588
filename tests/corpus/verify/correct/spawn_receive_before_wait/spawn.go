// Spawn's twin: take the result, then wait.
package spawn

import "sync"

func Spawn() int {
	var wg sync.WaitGroup
	ch := make(chan int)
	wg.Go(func() {
		ch <- 1
	})
	v := <-ch
	wg.Wait()
	return v
}
