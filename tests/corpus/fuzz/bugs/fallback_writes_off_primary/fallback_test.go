// A request asks a primary and a fallback and counts both with one
// WaitGroup. When the fallback's answer comes first, the caller writes the
// primary off and calls Done for it; the primary, only slow, still
// answers and calls its own Done: the counter goes negative and Done
// panics.
//
// Why one run does not show it and `gordian test` does not predict it: the
// primary answers at once and the fallback after 50 ms, so the first answer
// is always the primary's. The extra Done is on the branch `first ==
// "fallback"`, which the recorded run never took, so its trace holds two
// Dones for an Add(2): no order of those operations drives the counter
// below zero. What finds it: the first receive's alternative partner (the
// fallback's send, the buffered value that could have been first) as a
// schedule prefix; the branch then runs.
package fallback_writes_off_primary

import (
	"sync"
	"testing"
	"time"
)

func TestFallbackWritesOffPrimary(t *testing.T) {
	answers := make(chan string, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		answers <- "primary"
		wg.Done() // want: negative-waitgroup occurred
	}()
	go func() {
		time.Sleep(50 * time.Millisecond)
		answers <- "fallback"
		wg.Done()
	}()
	first := <-answers
	if first == "fallback" {
		wg.Done() // the primary is written off
	}
	wg.Wait()
	if second := <-answers; second == first {
		t.Fatalf("the same answer twice: %s", second)
	}
}
