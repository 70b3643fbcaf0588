// Expected: prints "ran 5" and then panics with "sync: negative WaitGroup
// counter" (exit status 2). Recorded: wg.Go's Add(+1) and Done(-1) at the
// line of the wg.Go call (5 each), WgWait, then a WgAdd with val -1, aux -1
// and kFailed, and a Panic whose string is "sync: negative WaitGroup counter".
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var wg sync.WaitGroup
	var n atomic.Int32
	for i := 0; i < 5; i++ {
		wg.Go(func() { n.Add(1) })
	}
	wg.Wait()
	fmt.Println("ran", n.Load())
	wg.Done()
}
