// A poller goroutine that serves requests until its context is cancelled:
// its loop selects on the request channel and on ctx.Done(), and it closes
// stopped when it returns. The test serves three requests, cancels, and
// waits for the poller with `<-stopped`. Every receive here that finds a
// channel closed is meant to: Done and stopped carry no data (their element
// type is struct{}) and their receives drop the value, so the zero value of
// a closed channel is exactly what they wait for. The test also checks, as
// testify's assert.Equal(t, struct{}{}, <-ctx.Done()) would, that a
// receive from the cancelled Done yields struct{}{}: it uses the value, but
// a struct{} value cannot be told from real data. Expected: no findings,
// and no recv-on-closed warning on these receives.
package poller

import (
	"context"
	"testing"
)

type request struct {
	n     int
	reply chan int
}

func poll(ctx context.Context, reqs <-chan request, stopped chan<- struct{}) {
	defer close(stopped)
	for {
		select { // nowant: recv-on-closed
		case <-ctx.Done():
			return
		case r := <-reqs:
			r.reply <- r.n * r.n
		}
	}
}

func TestPollerStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	reqs := make(chan request)
	stopped := make(chan struct{})
	go poll(ctx, reqs, stopped)
	for i := 1; i <= 3; i++ {
		r := request{n: i, reply: make(chan int)}
		reqs <- r
		if got := <-r.reply; got != i*i {
			t.Fatalf("reply %d, want %d", got, i*i)
		}
	}
	cancel()
	<-stopped                               // nowant: recv-on-closed
	if v := <-ctx.Done(); v != struct{}{} { // nowant: recv-on-closed
		t.Fatalf("Done yielded %v", v)
	}
}
