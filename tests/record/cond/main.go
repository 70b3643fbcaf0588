// sync.Cond: a consumer waits until a producer signals.
//
// The trace must contain: CondWait at @wait (goroutine 1.0) that completes,
// CondSignal at @signal (goroutine 1) whose val equals the wait's val (the
// ticket it woke: the exact partner), MutexLock/MutexUnlock on the Cond's
// lock around both.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	waiting := make(chan bool)
	done := make(chan bool)
	go func() {
		mu.Lock()
		waiting <- true
		for !ready {
			c.Wait() //@wait
		}
		mu.Unlock()
		done <- true
	}()
	<-waiting
	mu.Lock()
	ready = true
	c.Signal() //@signal
	mu.Unlock()
	<-done
	fmt.Println("woken")
}
