// A gatherer starts a worker that counts itself in the gatherer's
// WaitGroup (through the gatherer's Started method), sends its result on a
// buffered channel and is done; the gatherer, after some work of its own,
// waits for the group and closes the results. The worker counts itself
// inside its goroutine: when the gatherer's Wait comes before that Add,
// the counter is zero, Wait returns at once, the results are closed, and
// the worker's send panics (send on closed channel). (go vet flags a
// wg.Add written as the goroutine's first statement; through a method it
// does not.)
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the gatherer's own work takes 20 ms, so the worker has always added,
// sent and finished before the Wait. In the recorded trace the send happens
// before the close through the worker's Done and the Wait it released, so
// no reordering that keeps that edge puts the send after the close. What
// finds it: the worker's Done and the gatherer's Wait in the other order
// (the pair-flip strategy): Wait first, before the worker has added.
package waitgroup_add_in_worker

import (
	"sync"
	"testing"
	"time"
)

type gatherer struct {
	workers sync.WaitGroup
	results chan int
}

func (g *gatherer) Started() { g.workers.Add(1) }
func (g *gatherer) Done()    { g.workers.Done() }

func TestGatherWaitsForWorker(t *testing.T) {
	g := &gatherer{results: make(chan int, 1)}
	go func() { // the worker
		g.Started()
		defer g.Done()
		g.results <- 6 * 7 // want: send-on-closed occurred
	}()
	time.Sleep(20 * time.Millisecond) // the gatherer's own work
	g.workers.Wait()
	close(g.results)
	for r := range g.results {
		if r != 42 {
			t.Fatalf("result %d", r)
		}
	}
}
