// Correct: two lookups answer on one channel, a select waits for the
// answers or a cancel, and a flag under a lock says whether the worker
// started; every order of the answers, every case of the select and every
// order of the critical sections is handled (the cancel branch does not
// close what others send on, the flag only decides whether to wait).
// `gordian fuzz` explores those orders and must report no bug.
package results_any_order

import (
	"sync"
	"testing"
	"time"
)

func TestResultsAnyOrder(t *testing.T) {
	answers := make(chan int, 2)
	go func() { answers <- 1 }()
	go func() {
		time.Sleep(20 * time.Millisecond)
		answers <- 2
	}()
	a, b := <-answers, <-answers
	if a+b != 3 {
		t.Fatalf("answers %d and %d", a, b)
	}
}

func TestCancelLeavesResultsOpen(t *testing.T) {
	results := make(chan int, 1)
	cancel := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		time.Sleep(10 * time.Millisecond)
		results <- 42 // buffered: never blocks, whatever the select took
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond)
		close(cancel)
	}()
	select {
	case <-results:
	case <-cancel:
	}
	wg.Wait()
}

func TestFlagOnlyDecidesWaiting(t *testing.T) {
	var mu sync.Mutex
	started := false
	done := make(chan struct{})
	go func() {
		mu.Lock()
		started = true
		mu.Unlock()
		close(done)
	}()
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	s := started
	mu.Unlock()
	_ = s
	<-done // the worker closes done in every order
}
