// Expected: prints "done" and exits 0 after about 1.5 s. main waits on a
// user channel that a time.AfterFunc callback (user code) closes after
// 1.5 s, longer than the watchdog delay: the pending callback must keep the
// watchdog from reporting a deadlock.
package main

import (
	"fmt"
	"time"
)

func main() {
	done := make(chan struct{})
	time.AfterFunc(1500*time.Millisecond, func() { close(done) })
	<-done
	fmt.Println("done")
}
