// A worker says it is up on a handshake channel, then waits on a Cond for
// its job. The dispatcher waits for the handshake, prepares the job, sets
// it under the lock and signals. The worker waits without checking whether
// the job is already there: when the dispatcher's Signal comes before the
// worker's Wait (the worker is slow between the handshake and its Lock),
// the Signal finds no waiter and is lost; the worker waits forever and the
// dispatcher waits forever for the result (deadlock).
//
// The handshake makes it look ordered.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the dispatcher spends 5 ms preparing the job, by which time the worker
// waits; in the trace the worker's Wait released the lock before the
// dispatcher took it, and a Signal that wakes a waiter leaves no lost
// wakeup to predict. What finds it: the lock strategy (the dispatcher's
// Lock before the worker's), or a delay point at the worker's Lock.
package worker_signal_before_wait

import (
	"sync"
	"testing"
	"time"
)

type Worker struct {
	mu    sync.Mutex
	cond  *sync.Cond
	job   string
	ready chan struct{}
}

func (w *Worker) run(results chan<- string) {
	w.ready <- struct{}{} // up
	w.mu.Lock()
	w.cond.Wait() // want: global-deadlock occurred
	job := w.job
	w.mu.Unlock()
	results <- "done " + job
}

func TestDispatchOneJob(t *testing.T) {
	w := &Worker{ready: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	results := make(chan string)
	go w.run(results)
	<-w.ready
	time.Sleep(5 * time.Millisecond) // prepare the job
	w.mu.Lock()
	w.job = "resize"
	w.cond.Signal()
	w.mu.Unlock()
	if r := <-results; r != "done resize" { // want: global-deadlock occurred
		t.Fatal(r)
	}
}
