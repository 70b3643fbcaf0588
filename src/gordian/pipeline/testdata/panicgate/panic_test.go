// A goroutine panics at once, while the test goroutine sleeps before its
// two channel operations; the schedule puts the panic after them
// (schedule_runner_test.cc, ReplayEnforcement.APanicWaitsForTheOperationsBeforeIt).
package panicgate

import (
	"testing"
	"time"
)

func TestPanicAfterSendAndReceive(t *testing.T) {
	ch := make(chan int, 1)
	go func() {
		panic("late")
	}()
	time.Sleep(50 * time.Millisecond)
	ch <- 1
	<-ch
	time.Sleep(time.Second) // the panic ends the test binary here
}
