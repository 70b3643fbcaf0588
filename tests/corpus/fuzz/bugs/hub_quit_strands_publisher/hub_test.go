// A pub-sub hub forwards each published message to its subscriber and
// stops when `quit` is closed, closing the subscriber's channel. A
// publisher sends on the hub's unbuffered `msgs`: when the hub takes
// `quit` first, the publisher's send has no receiver and blocks forever
// (goroutine leak).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the publisher sends at once and quit comes 50 ms later, so the hub always
// takes the message first. In the recorded trace the send and its receive
// are matched and the quit case was taken afterwards: the hub's loop ran
// its select twice, and no goroutine is left blocked in any reordering in
// which the message is received. What finds it: a preference for the quit
// case (the select strategy), or that case forced with the close of quit
// first (the prediction-guided strategy's alternative select cases); the
// hub then returns before the message.
package hub_quit_strands_publisher

import (
	"testing"
	"time"
)

type hub struct {
	msgs chan string
	quit chan struct{}
	sub  chan string
}

func (h *hub) run(done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case m := <-h.msgs:
			h.sub <- m
		case <-h.quit:
			close(h.sub)
			return
		}
	}
}

func (h *hub) Publish(m string) {
	h.msgs <- m // want: goroutine-leak occurred chan-send
}

func TestHubStopsOnQuit(t *testing.T) {
	h := &hub{msgs: make(chan string), quit: make(chan struct{}), sub: make(chan string, 1)}
	done := make(chan struct{})
	go h.run(done)
	go h.Publish("hello")
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(h.quit)
	}()
	<-done
	for m := range h.sub {
		if m != "hello" {
			t.Fatalf("got %q", m)
		}
	}
}
