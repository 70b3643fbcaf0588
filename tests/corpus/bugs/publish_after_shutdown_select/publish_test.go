// A publisher offers each event to a subscriber with a bounded wait (a
// select between the send and a timer). Shutdown closes the subscriber's
// channel first, and the publisher then offers one more event: a select
// whose send case finds its channel already closed panics at once, before
// it parks. (The recorder used to leave such a select's case unflagged, so
// the finding was placed inside the runtime's select code.)
//
// Expected: send-on-closed, occurred, at the publisher's select.
package publish_after_shutdown_select

import (
	"testing"
	"time"
)

func TestPublishAfterShutdown(t *testing.T) {
	events := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range events {
		}
	}()
	close(events) // shutdown
	<-done
	select { // want: send-on-closed occurred
	case events <- "late":
	case <-time.After(10 * time.Millisecond):
	}
}
