// A pub-sub hub forwards each published message to its subscriber until
// the subscriber closes `done`. A stopper closes `quit` 50 ms into the test
// as a safety net; on quit the hub closes `msgs` itself, so that late
// publishers fail fast. A publisher that is still sending when the hub
// takes quit then sends on a closed channel: its select panics.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the publisher sends at once and the subscriber closes `done` when it has
// the message, so the hub has always returned on `done` before quit comes;
// the hub's close of `msgs` is on the quit branch, which the recorded run
// never took, so the trace holds no close of `msgs`. The publisher's send
// gives up after a second, so taking the quit case leaves no goroutine
// blocked forever either (no leak to predict). What finds it: the quit
// case taken although a message is ready, by a preference for it (the
// select strategy) or forced with the close of quit first (the
// prediction-guided strategy's alternative select cases).
package hub_quit_strands_publisher

import (
	"testing"
	"time"
)

type hub struct {
	msgs chan string
	done chan struct{} // closed by the subscriber
	quit chan struct{} // closed by the stopper
	sub  chan string
}

func (h *hub) run() {
	defer close(h.sub)
	for {
		select {
		case m := <-h.msgs:
			h.sub <- m
		case <-h.done:
			return
		case <-h.quit:
			close(h.msgs) // late publishers fail fast
			return
		}
	}
}

// Publish gives up on a hub that has not taken the message within a second.
func (h *hub) Publish(m string) bool {
	select { // want: send-on-closed occurred
	case h.msgs <- m:
		return true
	case <-time.After(time.Second):
		return false
	}
}

func TestHubForwardsUntilDone(t *testing.T) {
	h := &hub{msgs: make(chan string), done: make(chan struct{}),
		quit: make(chan struct{}), sub: make(chan string, 1)}
	go h.run()
	go h.Publish("hello") // the publisher
	go func() {           // the stopper
		time.Sleep(50 * time.Millisecond)
		close(h.quit)
	}()
	if m, ok := <-h.sub; ok && m != "hello" {
		t.Fatalf("got %q", m)
	}
	close(h.done)
}
