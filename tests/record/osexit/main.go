// os.Exit with a goroutine still blocked.
//
// The trace must contain: a ChanRecv at @blocked in goroutine 1.0 that never
// completes (tpost 0), a ChanClose at @close before it, and a ProgramExit
// with aux 1 (os.Exit) and val 3: the exit status is 3, as without gordian.
package main

import (
	"fmt"
	"os"
)

func main() {
	started := make(chan bool)
	closed := make(chan int)
	close(closed) //@close
	go func() {
		started <- true
		<-make(chan int) //@blocked
	}()
	<-started
	<-closed
	fmt.Println("exiting")
	os.Exit(3)
}
