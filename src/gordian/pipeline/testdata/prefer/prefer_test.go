// A select with one case ready at once and one ready 20 ms later: a plain
// run takes the ready one; a prefer line for the other makes it wait for
// that one (schedule_runner_test.cc,
// ReplayEnforcement.APreferLineMakesTheSelectWaitForItsCase).
package prefer

import (
	"testing"
	"time"
)

func TestPrefer(t *testing.T) {
	ready := make(chan int, 1)
	later := make(chan int)
	ready <- 1
	go func() {
		time.Sleep(20 * time.Millisecond)
		later <- 2
	}()
	got := 0
	select {
	case v := <-ready:
		got = v
	case v := <-later:
		got = v
	}
	if got == 1 {
		<-later // the sender must not leak
	}
}
