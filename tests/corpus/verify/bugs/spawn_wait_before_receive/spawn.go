// Spawn waits for its WaitGroup.Go task before it takes the task's result.
package spawn

import "sync"

func Spawn() int {
	var wg sync.WaitGroup
	ch := make(chan int)
	wg.Go(func() {
		ch <- 1 // want: global-deadlock predicted
	})
	wg.Wait() // want: global-deadlock predicted
	return <-ch
}
