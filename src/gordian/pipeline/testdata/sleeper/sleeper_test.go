// A goroutine sleeps 100 ms before its send; the test goroutine receives
// (schedule_runner_test.cc, ReplayEnforcement.AGoroutineAsleepIsNoStall:
// with a stall time shorter than the sleep, the send must not be skipped).
package sleeper

import (
	"testing"
	"time"
)

func TestSleepThenSend(t *testing.T) {
	ch := make(chan int)
	go func() {
		time.Sleep(100 * time.Millisecond)
		ch <- 1
	}()
	<-ch
}
