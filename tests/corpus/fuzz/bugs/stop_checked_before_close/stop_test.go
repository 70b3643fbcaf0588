// The twin of fuzz/correct/ready_case_beats_default with a real bug: the
// test tells a worker to stop, waits for its acknowledgement, and then
// checks without blocking that the worker closed its stopped channel. But
// the worker closes the channel after it acknowledges, and the check
// relies on a 1 ms sleep to let that happen: when the worker is slow
// between the two, the check takes its default and panics.
//
// Why a plain run does not show it and `gordian test` does not predict it:
// the close follows the acknowledgement by nanoseconds, far within the
// sleep; the recorded select found the channel closed and no reordering of
// recorded operations un-closes it (the close is not ordered before the
// select: a delay is needed). What finds it: a delay point at the close
// (the delay strategy), which holds the worker until the test has checked.
package stop_checked_before_close

import (
	"testing"
	"time"
)

func TestStopIsAcknowledged(t *testing.T) {
	stop := make(chan struct{})
	ack := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		<-stop
		ack <- struct{}{}
		close(stopped)
	}()
	close(stop)
	<-ack
	time.Sleep(time.Millisecond)
	select {
	case <-stopped:
	default:
		panic("worker acknowledged but has not stopped") // want: panic occurred
	}
}
