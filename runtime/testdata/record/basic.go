// Expected: prints "sum 45" and exits 0. Recorded: one unbuffered channel
// (ChanMake cap 0), 10 ChanSend in main paired one to one (equal seq 1..10)
// with 10 ChanRecv in the worker, then a receive of the closed channel
// (kClosed, val 0); ChanClose val 10; WgAdd +1 (aux 1), Done -1 (aux 0),
// WgWait; 10 MutexLock/MutexUnlock pairs on one mutex; GoSpawn in main with
// child index 0 naming the worker, whose GoStart names main; ProgramExit 0.
package main

import (
	"fmt"
	"sync"
)

func main() {
	ch := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := range ch {
			mu.Lock()
			sum += v
			mu.Unlock()
		}
	}()
	for i := 0; i < 10; i++ {
		ch <- i
	}
	close(ch)
	wg.Wait()
	fmt.Println("sum", sum)
}
