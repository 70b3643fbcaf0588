// An event forwarder copies events from an input channel to an output channel
// until stop is closed. It waits in an outer select for an event (or stop) and
// then in an inner select for the reader (or stop). The test reads one
// forwarded event, sends a second one and returns without reading it and
// without closing stop: the forwarder stays in its inner select forever.
//
// Expected: goroutine-leak, occurred, select, at the inner select. The second
// send completes only when the forwarder has received the event, so the
// forwarder is past the outer select when the test returns.
package forwarder

import "testing"

type Event struct {
	Kind string
	Key  string
}

func Forward(in <-chan Event, out chan<- Event, stop <-chan struct{}) {
	for {
		select {
		case ev := <-in:
			select { // want: goroutine-leak occurred select
			case out <- ev:
			case <-stop:
				return
			}
		case <-stop:
			return
		}
	}
}

func TestForwardFirstEvent(t *testing.T) {
	in, out := make(chan Event), make(chan Event)
	stop := make(chan struct{})
	go Forward(in, out, stop)

	in <- Event{"put", "user/1"}
	if ev := <-out; ev.Key != "user/1" {
		t.Fatalf("got %+v", ev)
	}
	in <- Event{"delete", "user/1"} // nobody reads this one
}
