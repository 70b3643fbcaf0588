// Await signals a condition that its waiter may not be waiting on yet:
// the signal is lost and the waiter sleeps for ever.
package await

import "sync"

func Await() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	go func() {
		mu.Lock()
		c.Wait() // want: goroutine-leak predicted cond
		mu.Unlock()
	}()
	mu.Lock()
	c.Signal()
	mu.Unlock()
}
