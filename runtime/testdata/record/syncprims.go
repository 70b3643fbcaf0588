// Expected: prints "once 1", "woken 3", "signalled" and exits 0.
// Recorded: two OnceDo on one Once, the first with kSuccess; RLock, RUnlock,
// RWLock, RWUnlock on one RWMutex; RWTryLock with kSuccess; MutexTryLock
// with kSuccess and one without; three CondWait (val = ticket + 1) that a
// CondBroadcast woke (val - aux < wait val <= val), then one CondWait paired
// with a CondSignal of equal val.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var once sync.Once
	count := 0
	once.Do(func() { count++ })
	once.Do(func() { count++ })
	fmt.Println("once", count)

	var rw sync.RWMutex
	rw.RLock()
	rw.RUnlock()
	rw.Lock()
	rw.Unlock()
	if rw.TryLock() {
		rw.Unlock()
	}
	var m sync.Mutex
	m.TryLock()
	m.TryLock() // fails
	m.Unlock()

	var mu sync.Mutex
	c := sync.NewCond(&mu)
	waiting, woken := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			waiting++
			c.Wait()
			woken++
			mu.Unlock()
		}()
	}
	for {
		mu.Lock()
		if waiting == 3 {
			c.Broadcast()
			mu.Unlock()
			break
		}
		mu.Unlock()
	}
	wg.Wait()
	fmt.Println("woken", woken)

	ready := false
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		ready = true
		c.Wait()
		mu.Unlock()
	}()
	for {
		mu.Lock()
		if ready {
			c.Signal()
			mu.Unlock()
			break
		}
		mu.Unlock()
	}
	wg.Wait()
	fmt.Println("signalled")
}
