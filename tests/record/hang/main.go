// A program that never ends and is not deadlocked (it sleeps in a loop):
// only gordian's wall-clock limit stops it.
//
// The trace must contain: the ChanSend at @send and ChanRecv at @recv
// before the loop; no ProgramExit (the program was killed).
package main

import (
	"fmt"
	"time"
)

func main() {
	ch := make(chan int, 1)
	ch <- 1 //@send
	<-ch    //@recv
	fmt.Println("looping")
	for {
		time.Sleep(10 * time.Millisecond)
	}
}
