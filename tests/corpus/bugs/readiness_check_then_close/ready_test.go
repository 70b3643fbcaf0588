// A readiness gate is closed by whichever component becomes ready first:
// MarkReady checks with a non-blocking select whether the gate is already
// closed and closes it otherwise. Check-then-close is not atomic. Two
// components call MarkReady, the second one 50 ms later.
//
// Expected: close-of-closed, predicted, at the close in MarkReady. In the
// normal run the second caller finds the gate closed and takes the receive
// case. If both selects run before either close (nothing but a sleep separates
// them), both take default and the second close panics. Finding it needs the
// branch the run did not take (select fuzzing or the static checker).
package readiness

import (
	"sync"
	"testing"
	"time"
)

type Gate struct{ ready chan struct{} }

func NewGate() *Gate { return &Gate{ready: make(chan struct{})} }

func (g *Gate) MarkReady() {
	select {
	case <-g.ready:
		// already ready
	default:
		close(g.ready) // want: close-of-closed predicted
	}
}

func (g *Gate) Wait() { <-g.ready }

func TestTwoComponentsBecomeReady(t *testing.T) {
	g := NewGate()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // cache warm-up
		defer wg.Done()
		g.MarkReady()
	}()
	go func() { // config load, slower
		defer wg.Done()
		time.Sleep(50 * time.Millisecond)
		g.MarkReady()
	}()
	g.Wait()
	wg.Wait()
}
