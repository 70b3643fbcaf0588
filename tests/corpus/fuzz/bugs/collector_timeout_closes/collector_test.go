// A collector gathers three results from a producer, giving up when the
// next one has not come within 200 ms. On the timeout it closes `results`
// to tell the producer to stop. The producer, which itself gives up on a
// collector that has not taken a result within a second, is still waiting
// to send: its send then panics on the closed channel.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the producer sends its results at once, so each select finds a result
// ready and never waits for its timer; the close is on the timeout branch,
// which the recorded run never took, so the trace holds no close of
// `results`. What finds it: a preference for the timer case (the select
// strategy): the select waits for its timer although a result is ready,
// takes the timeout branch, and the producer's send meets the close.
package collector_timeout_closes

import (
	"testing"
	"time"
)

func TestCollectorGivesUp(t *testing.T) {
	results := make(chan int)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 3; i++ {
			select { // want: send-on-closed occurred
			case results <- i:
			case <-time.After(time.Second):
				return // the collector is gone
			}
		}
	}()
	for got := 0; got < 3; {
		select {
		case <-results:
			got++
		case <-time.After(200 * time.Millisecond):
			close(results) // the producer is taken for stuck
			<-done
			return
		}
	}
	<-done
}
