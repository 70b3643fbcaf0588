// Two workers send their result; the first result to arrive decides:
// when it is the fast worker's, the slow one is told to give up by closing
// the channel it is about to send on. In plain runs the slow worker sends
// first nearly always (the fast one waits for it to start), so the close
// rarely happens; the fuzzer's other-partner schedule has the fast one's
// send met first and finds the send on the closed channel. The corpus
// test keeps the schedules that added coverage and runs them first next
// time.
package partner

import (
	"sync"
	"testing"
)

func TestPartner(t *testing.T) {
	results := make(chan string)
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		close(started)
		results <- "slow"
	}()
	go func() {
		defer wg.Done()
		<-started
		results <- "fast"
	}()
	if first := <-results; first == "fast" {
		close(results)
	} else {
		<-results
	}
	wg.Wait()
}
