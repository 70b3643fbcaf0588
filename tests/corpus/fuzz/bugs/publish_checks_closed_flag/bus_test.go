// A message bus: a publisher checks an atomic `closed` flag and, when the
// bus is open, sends on its buffered channel. Close waits for the
// publishers in flight, but at most 10 ms, then sets the flag and closes
// the channel. A publisher that checked the flag before Close and is still
// not done when the 10 ms are over sends on the closed channel and panics.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// Close comes 20 ms after the publisher, whose check and send take
// nanoseconds, so Close always finds it done. In the recorded trace the
// send happens before the close through the publisher's Done, the waiter's
// Wait and the `idle` channel, so no reordering of recorded operations puts
// the send after the close; the flag is an atomic the recorder does not
// see. What finds it: a delay point (the delay strategy) that holds the
// publisher at its send for longer than Close's 10 ms; or Close's timer
// case forced (the prediction-guided strategy's alternative select cases):
// in that run the close no longer follows the publisher's Done, the run's
// analysis predicts the send after the close, and the replay of its
// rewrite shows it.
package publish_checks_closed_flag

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type bus struct {
	closed   atomic.Bool
	inFlight sync.WaitGroup
	ch       chan string
}

// PublishAsync publishes m from a goroutine of its own, counted in
// inFlight before it starts.
func (b *bus) PublishAsync(m string) {
	b.inFlight.Add(1)
	go func() {
		defer b.inFlight.Done()
		if b.closed.Load() {
			return
		}
		b.ch <- m // want: send-on-closed occurred
	}()
}

func (b *bus) Close() {
	idle := make(chan struct{})
	go func() {
		b.inFlight.Wait()
		close(idle)
	}()
	select {
	case <-idle:
	case <-time.After(10 * time.Millisecond): // a stuck publisher must not stop Close
	}
	b.closed.Store(true)
	close(b.ch)
}

func TestPublishChecksClosed(t *testing.T) {
	b := &bus{ch: make(chan string, 4)}
	b.PublishAsync("hello")
	time.Sleep(20 * time.Millisecond)
	b.Close()
	for range b.ch {
	}
}
