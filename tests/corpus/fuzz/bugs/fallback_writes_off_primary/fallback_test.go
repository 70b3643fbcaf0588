// A request asks a primary and a fallback; a WaitGroup tracks the primary,
// so that the request can wait for it to finish. When the fallback's
// answer comes first, the caller writes the primary off and calls Done for
// it; the primary, only slow, still finishes and calls its own Done: the
// counter goes negative and Done panics.
//
// Why one run does not show it and `gordian test` does not predict it: the
// primary answers at once and the fallback after 50 ms, so the first answer
// is always the primary's. The extra Done is on the branch `first ==
// "fallback"`, which the recorded run never took, so its trace holds one
// Done for an Add(1): no order of those operations drives the counter below
// zero. What finds it: the first receive's alternative partner (the
// fallback's send, a buffered value that could have been first) as a
// schedule prefix; the branch then runs. The primary finishes only after
// the caller has handled the first answer (`handled`), so the Done that
// panics is always the primary's.
package fallback_writes_off_primary

import (
	"sync"
	"testing"
	"time"
)

func TestFallbackWritesOffPrimary(t *testing.T) {
	answers := make(chan string, 2)
	handled := make(chan struct{})
	var primary sync.WaitGroup
	primary.Add(1)
	go func() {
		answers <- "primary"
		<-handled
		primary.Done() // want: negative-waitgroup occurred
	}()
	go func() {
		time.Sleep(50 * time.Millisecond)
		answers <- "fallback"
	}()
	first := <-answers
	if first == "fallback" {
		primary.Done() // the primary is written off
	}
	close(handled)
	primary.Wait()
	if second := <-answers; second == first {
		t.Fatalf("the same answer twice: %s", second)
	}
}
