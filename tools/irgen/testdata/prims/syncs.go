// sync primitives: Mutex, RWMutex, WaitGroup, Once, Cond.
package prims

import "sync"

type Counter struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	once  sync.Once
	value int
}

func (c *Counter) Inc() {
	c.mu.Lock() // ir: lock
	defer c.mu.Unlock() // ir: unlock via=defer
	c.value++
}

func (c *Counter) Read() int {
	c.rw.RLock() // ir: rlock
	v := c.value
	c.rw.RUnlock() // ir: runlock
	c.once.Do(c.setup) // ir: once-do
	return v
}

func (c *Counter) setup() {}

func Fan(k int) {
	var wg sync.WaitGroup
	wg.Add(k + 1) // ir: wg-add delta="(+ p0 1)"
	for i := 0; i < k; i++ {
		go work(&wg) // ir: go mode=static
	}
	wg.Done() // ir: wg-done
	wg.Wait() // ir: wg-wait
}

func work(wg *sync.WaitGroup) {
	defer wg.Done() // ir: wg-done via=defer
}

func Signal(ready *bool) {
	var mu sync.Mutex
	c := sync.NewCond(&mu) // ir: cond-new
	mu.Lock() // ir: lock
	for !*ready {
		c.Wait() // ir: cond-wait
	}
	c.Broadcast() // ir: cond-broadcast
	mu.Unlock() // ir: unlock
}
