// The shape of fuzz/bugs/waitgroup_add_in_worker done right: the gatherer
// counts the worker before it starts it, so its Wait cannot come before
// the Add and it finds the worker's result whenever the worker sent one,
// whichever order the rest runs in.
package waitgroup_add_before_go

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
	g.Started()
	go func() { // the worker
		defer g.Done()
		g.results <- 6 * 7
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
