// Gate opens with one Signal while two goroutines wait on its Cond: Signal
// wakes at most one waiter, so the other sleeps for ever (Broadcast was
// meant).
package gate

import "sync"

func Open() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			mu.Lock()
			wg.Done()
			c.Wait() // want: goroutine-leak predicted cond
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	c.Signal()
	mu.Unlock()
}
