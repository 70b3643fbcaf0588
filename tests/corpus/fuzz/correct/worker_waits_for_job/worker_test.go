// The twin of worker_signal_before_wait: the worker waits only while no
// job is there, so a Signal that came before its Wait is not needed: it
// finds the job and goes on. `gordian fuzz` finds no bug.
package worker_waits_for_job

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
	for w.job == "" {
		w.cond.Wait()
	}
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
	if r := <-results; r != "done resize" {
		t.Fatal(r)
	}
}
