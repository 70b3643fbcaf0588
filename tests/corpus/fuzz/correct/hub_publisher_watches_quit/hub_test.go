// The shape of fuzz/bugs/hub_quit_strands_publisher done right: a
// publisher selects on `quit` beside its send, so when the hub has
// stopped first the publisher gives up instead of blocking, whichever case
// the hub's select takes.
package hub_publisher_watches_quit

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
	select {
	case h.msgs <- m:
	case <-h.quit: // the hub is gone: drop the message
	}
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
