// A notifier delivers an event after a delay (a simulated slow upstream) on
// an unbuffered channel. The test checks that no event arrives early: it
// waits 10 ms, sees none, and returns. Nobody receives from the channel any
// more, so when the notifier wakes up 50 ms after the test returned, its
// send blocks forever: a goroutine leak that happens after the test ended.
//
// Expected: goroutine-leak, occurred, chan-send, at the send: the recorder
// waits for the test's goroutines to settle (GORDIAN_SETTLE, default 1 s)
// and sees the notifier blocked.
package notifier

import (
	"testing"
	"time"
)

type Notifier struct {
	events chan string
}

func (n *Notifier) Later(ev string, delay time.Duration) {
	go func() {
		time.Sleep(delay)
		n.events <- ev // want: goroutine-leak occurred chan-send
	}()
}

func TestNoEarlyEvent(t *testing.T) {
	n := &Notifier{events: make(chan string)}
	n.Later("ready", 50*time.Millisecond)
	select {
	case ev := <-n.events:
		t.Fatalf("event %q arrived early", ev)
	case <-time.After(10 * time.Millisecond):
	}
}
