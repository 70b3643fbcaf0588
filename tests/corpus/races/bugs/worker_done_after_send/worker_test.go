// A race "behind a channel": the worker sends its result and only then sets
// w.finished. The receive orders everything the worker did BEFORE the send
// before the test's next steps, but not the write after it, so the test's
// read of w.finished races with that write. The final receive on quit
// orders the worker's end before the test returns (no leak).
// Expected: data-race occurred at the write after the send.
package worker

import "testing"

type Worker struct {
	finished bool
}

func (w *Worker) Run(out chan<- int, quit chan<- struct{}) {
	out <- 42
	w.finished = true // want: data-race occurred
	quit <- struct{}{}
}

func TestWorkerResult(t *testing.T) {
	w := &Worker{}
	out := make(chan int)
	quit := make(chan struct{})
	go w.Run(out, quit)
	v := <-out
	if w.finished && v != 42 {
		t.Fatal("bad result")
	}
	<-quit
}
