// Expected: prints "ready" after its channel operations and then sleeps for
// an hour; the test kills it with SIGKILL. The trace must still hold the
// five ChanSend and five ChanRecv (paired) and the worker's GoStart.
package main

import (
	"fmt"
	"time"
)

func main() {
	ch := make(chan int)
	go func() {
		for v := range ch {
			_ = v
		}
	}()
	for i := 0; i < 5; i++ {
		ch <- i
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
}
