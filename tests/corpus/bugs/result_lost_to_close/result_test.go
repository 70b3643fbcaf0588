// The twin of correct/err_channel_closed_on_success with a real bug: the
// result is sent by one goroutine and the channel is closed by another
// (a timeout path that gives up after a short sleep), with nothing
// ordering the close after the send. In the recorded run the send comes
// first and the caller gets the result; in another schedule the close
// comes first: the send panics, and the caller receives the zero value and
// takes it for a result.
// Expected: recv-on-closed (a warning), predicted, at the caller's receive;
// send-on-closed, predicted, at the send.
package result_lost_to_close

import (
	"testing"
	"time"
)

func TestResultOrTimeout(t *testing.T) {
	results := make(chan int, 1)
	go func() {
		results <- 42 // want: send-on-closed predicted
	}()
	go func() {
		time.Sleep(5 * time.Millisecond)
		close(results)
	}()
	got := <-results // want: recv-on-closed predicted
	if got != 42 {
		t.Errorf("got %d", got)
	}
	time.Sleep(10 * time.Millisecond)
}
