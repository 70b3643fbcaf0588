// The shape of fuzz/bugs/hub_quit_strands_publisher done right: on quit
// the hub only returns, and a publisher selects on `quit` beside its send,
// so a publisher still sending when the hub stops gives up instead of
// sending on a closed channel, whichever case the hub's select takes.
package hub_publisher_watches_quit

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
			return // publishers watch quit
		}
	}
}

// Publish gives up on a hub that has stopped or has not taken the message
// within a second.
func (h *hub) Publish(m string) bool {
	select {
	case h.msgs <- m:
		return true
	case <-h.quit:
		return false
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
