// A panic in the main goroutine after some channel traffic.
//
// The trace must contain: the ChanSend at @send (completed, buffered) and
// its partner ChanRecv at @panic, a Panic record whose message is
// "boom: 42" (recorder v1 gives Panic no site), and a ProgramExit with aux 2
// (fatal panic) and status 2, like the uninstrumented program.
package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	ch <- 42 //@send
	fmt.Println("before")
	panic(fmt.Sprintf("boom: %d", <-ch)) //@panic
}
