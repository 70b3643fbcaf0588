// A page cache starts a background prefetch for the next page and returns.
// The prefetch waits for a simulated backend reply (time.After) under a
// context.WithTimeout; whichever comes first decides, and the prefetch
// records its outcome and exits. The test returns before either fires: the
// prefetch goroutine is then waiting on a timer and a context deadline,
// both of which fire a few tens of milliseconds later, and it ends. No
// goroutine is left blocked. Expected: no findings.
package prefetch

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Pages struct {
	mu      sync.Mutex
	fetched map[int]bool
	timeout map[int]bool
}

func (p *Pages) prefetch(n int, reply, limit time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	go func() {
		defer cancel()
		select {
		case <-time.After(reply):
			p.mu.Lock()
			p.fetched[n] = true
			p.mu.Unlock()
		case <-ctx.Done():
			p.mu.Lock()
			p.timeout[n] = true
			p.mu.Unlock()
		}
	}()
}

func (p *Pages) Show(n int) string {
	p.prefetch(n+1, 40*time.Millisecond, 60*time.Millisecond)
	p.prefetch(n+2, 80*time.Millisecond, 50*time.Millisecond)
	return "page"
}

func TestShowStartsPrefetch(t *testing.T) {
	p := &Pages{fetched: map[int]bool{}, timeout: map[int]bool{}}
	if got := p.Show(1); got != "page" {
		t.Fatalf("Show = %q", got)
	}
}
