// sync.RWMutex: two readers and a writer.
//
// The trace must contain: RWLock at @wlock and RWUnlock at @wunlock (once
// each, same object), RLock at @rlock and RUnlock at @runlock (twice each,
// same object), and a TryLock attempt RWTryLock at @try with kSuccess,
// made when nobody held the lock.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var rw sync.RWMutex
	var wg sync.WaitGroup
	shared := 0
	rw.Lock() //@wlock
	shared = 1
	rw.Unlock() //@wunlock
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rw.RLock() //@rlock
			_ = shared
			rw.RUnlock() //@runlock
		}()
	}
	wg.Wait()
	if rw.TryLock() { //@try
		rw.Unlock()
	}
	fmt.Println("shared", shared)
}
