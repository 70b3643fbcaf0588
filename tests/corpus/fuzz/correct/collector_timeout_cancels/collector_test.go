// The shape of fuzz/bugs/collector_timeout_closes done right: on the
// timeout the collector closes a separate `cancel` channel, which only it
// closes, and the producer selects on it beside its send, so a slow
// producer stops instead of sending on a closed channel; whichever case
// the collector's select takes, no operation fails.
package collector_timeout_cancels

import (
	"testing"
	"time"
)

func TestCollectorGivesUp(t *testing.T) {
	results := make(chan int)
	cancel := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 3; i++ {
			select {
			case results <- i:
			case <-cancel:
				return
			}
		}
	}()
	for got := 0; got < 3; {
		select {
		case <-results:
			got++
		case <-time.After(200 * time.Millisecond):
			close(cancel)
			<-done
			return
		}
	}
	<-done
}
