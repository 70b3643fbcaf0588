// A worker polls for work in a select with a default, spinning (yielding)
// until it is told to stop; the test hands it three jobs, then stops it
// and waits for it. A schedule that prefers the stop case early, or holds
// the test, makes the worker spin longer; every run still ends.
// Expected: no findings.
package select_default_poll_loop

import (
	"runtime"
	"testing"
)

func TestPollUntilStopped(t *testing.T) {
	jobs := make(chan int, 3)
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				done <- n
				return
			case <-jobs:
				n++
			default:
				runtime.Gosched()
			}
		}
	}()
	for i := 0; i < 3; i++ {
		jobs <- i
	}
	close(stop)
	<-done
}
