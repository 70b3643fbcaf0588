// A global deadlock: main waits for a value nobody sends, a worker waits
// for a lock main holds.
//
// The trace must contain: a ChanRecv at @recv in goroutine 1 and a
// MutexLock at @lock in goroutine 1.0, both never completed (tpost 0); a
// GlobalDeadlock record (2 goroutines); a ProgramExit with aux 4. The
// recorder exits with status 3 (Go's own detector would say "all goroutines
// are asleep" and exit 2: this is the one intended difference).
package main

import (
	"fmt"
	"sync"
)

func main() {
	var mu sync.Mutex
	ch := make(chan int)
	mu.Lock()
	go func() {
		mu.Lock() //@lock
		ch <- 1
	}()
	fmt.Println("waiting")
	<-ch //@recv
}
