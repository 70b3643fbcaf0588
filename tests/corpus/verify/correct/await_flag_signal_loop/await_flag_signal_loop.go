// Await waits for a flag a goroutine sets: the flag is a captured local,
// written under the lock before the Signal, and the waiter re-tests it in a
// loop, so a Signal sent before the waiter waits is not lost (the waiter
// sees the flag and never waits). Twin of bugs/await_lost_signal.
package await

import "sync"

func Await() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	done := false
	go func() {
		mu.Lock()
		done = true
		c.Signal()
		mu.Unlock()
	}()
	mu.Lock()
	for !done {
		c.Wait()
	}
	mu.Unlock()
}
