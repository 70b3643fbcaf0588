// A deploy tool reads status updates from one channel in two places at once:
// the progress printer and the waiter that wants the final "done" status. Both
// receive from the same channel concurrently, so which of them gets an update
// is up to the scheduler: the waiter may see "50%" and the printer may swallow
// "done". The test only checks that both finish.
//
// Expected: concurrent-recv (a warning), occurred, at both receives. No
// bug-severity finding: both readers get one update each, whichever it is, and
// nothing blocks.
package deploy

import (
	"sync"
	"testing"
)

func TestDeployStatus(t *testing.T) {
	status := make(chan string)
	var wg sync.WaitGroup
	var printed, final string
	wg.Add(2)
	go func() { // progress printer
		defer wg.Done()
		printed = <-status // want: concurrent-recv occurred
	}()
	go func() { // waiter
		defer wg.Done()
		final = <-status // want: concurrent-recv occurred
	}()
	status <- "50%"
	status <- "done"
	wg.Wait()
	if printed == "" || final == "" {
		t.Fatal("a reader got nothing")
	}
	t.Logf("printer saw %q, waiter saw %q", printed, final)
}
