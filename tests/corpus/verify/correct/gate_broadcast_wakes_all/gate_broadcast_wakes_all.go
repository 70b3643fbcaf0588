// Gate's twin: Broadcast wakes every waiter. The WaitGroup and the lock
// make sure both waiters are in Wait before the gate opens (each calls
// Done holding the lock, which only Wait releases).
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
			c.Wait()
			mu.Unlock()
		}()
	}
	wg.Wait()
	mu.Lock()
	c.Broadcast()
	mu.Unlock()
}
