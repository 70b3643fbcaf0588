// Non-blocking and bounded-time channel operations: an event sampler drops
// events when its one-slot buffer is full (select with default), and Await
// waits for a reply with a timeout (select with time.After) on a channel with
// room for the reply, so a late replier never blocks. The test waits for the
// replier goroutine before it returns. No operation can block forever in any
// schedule. Expected: no findings.
package limiter

import (
	"testing"
	"time"
)

type Sampler struct{ events chan string }

func (s *Sampler) Offer(ev string) bool {
	select {
	case s.events <- ev:
		return true
	default:
		return false // full: drop
	}
}

func Await(reply <-chan string, d time.Duration) (string, bool) {
	select {
	case r := <-reply:
		return r, true
	case <-time.After(d):
		return "", false
	}
}

func TestSampler(t *testing.T) {
	s := &Sampler{events: make(chan string, 1)}
	if !s.Offer("a") || s.Offer("b") {
		t.Fatal("want first accepted, second dropped")
	}
	if got := <-s.events; got != "a" {
		t.Fatalf("got %q", got)
	}
}

func TestAwait(t *testing.T) {
	reply := make(chan string, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		reply <- "pong"
	}()
	if r, ok := Await(reply, time.Second); !ok || r != "pong" {
		t.Fatalf("got %q %v", r, ok)
	}
	<-finished
}
