// sync.Mutex protecting a counter, 4 goroutines x 100 increments.
//
// The trace must contain: 400 MutexLock at @lock and 400 MutexUnlock at
// @unlock, all on one object; in each goroutine locks and unlocks
// alternate; no two critical sections overlap in time (each Lock's tpost
// comes after the previous holder's Unlock stamp); WgAdd at @add (+4),
// four WgAdd -1 at @done, a WgWait at @wait that completes after the last
// Done.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	wg.Add(4) //@add
	for g := 0; g < 4; g++ {
		go func() {
			defer wg.Done() //@done
			for i := 0; i < 100; i++ {
				mu.Lock() //@lock
				n++
				mu.Unlock() //@unlock
			}
		}()
	}
	wg.Wait() //@wait
	fmt.Println("n", n)
}
