// A gatherer starts a worker that counts itself in the gatherer's
// WaitGroup (through the gatherer's Started method) and sends its result
// on a buffered channel; the gatherer, after some work of its own, waits
// for the group and, when no result is there, takes it that the worker had
// nothing to say and closes the results. The worker counts itself inside
// its goroutine: when the gatherer's Wait comes before that Add, Wait
// returns at once, no result is there yet, the results are closed, and the
// worker's send panics (send on closed channel). (go vet flags a wg.Add
// written as the goroutine's first statement; through a method it does
// not.)
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the gatherer's own work takes 20 ms, so the worker has always added,
// sent and finished before the Wait, and a result is always there. The
// close is on the branch `len(results) == 0`, which the recorded run never
// took, so the trace holds no close of `results`. What finds it: the
// gatherer's Wait before the worker's WaitGroup operations (the pair-flip
// strategy flips the worker's Done and the Wait); the branch then runs.
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
	if len(g.results) == 0 { // the worker had nothing to say
		close(g.results)
		return
	}
	if r := <-g.results; r != 42 {
		t.Fatalf("result %d", r)
	}
}
