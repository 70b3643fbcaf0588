// A request waits for its result or for a cancel, whichever is ready. On
// cancel it closes the result channel, believing the worker gave up too;
// the worker, still busy, then sends its result on the closed channel and
// panics.
//
// Why one run does not show it and `gordian test` does not predict it: the
// worker answers after 10 ms and the cancel comes after 50 ms, so the
// select always takes the result. The close of `results` is on the cancel
// branch, which the recorded run never took, so the trace has no close of
// that channel; the result channel is buffered, so taking the cancel case
// leaves no goroutine blocked either (no leak to predict). What finds it:
// the select's alternative case (cancel, with its close first) as a
// schedule prefix; the cancel branch then runs its close before the
// worker's send.
package cancel_case_closes_results

import (
	"sync"
	"testing"
	"time"
)

func TestCancelClosesResults(t *testing.T) {
	results := make(chan int, 1)
	cancel := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		time.Sleep(10 * time.Millisecond) // the work
		results <- 42 // want: send-on-closed occurred
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond)
		close(cancel)
	}()
	select {
	case v := <-results:
		if v != 42 {
			t.Fatalf("result %d", v)
		}
	case <-cancel:
		close(results)
	}
	wg.Wait()
}
