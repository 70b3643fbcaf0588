// Latch opens with one Signal while two goroutines wait in a predicate loop
// (`for !l.open { l.c.Wait() }`): the loop guards against a Signal sent
// before a waiter waits, not against Signal waking only one of them. Both
// are waiting when it opens (each calls Done holding the lock, which only
// Wait releases), so the other sleeps for ever (Broadcast was meant).
package latch

import "sync"

type Latch struct {
	mu   sync.Mutex
	c    *sync.Cond
	open bool
}

func Run() {
	l := &Latch{}
	l.c = sync.NewCond(&l.mu)
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			l.mu.Lock()
			wg.Done()
			for !l.open {
				l.c.Wait() // want: goroutine-leak predicted cond
			}
			l.mu.Unlock()
		}()
	}
	wg.Wait()
	l.mu.Lock()
	l.open = true
	l.c.Signal()
	l.mu.Unlock()
}
