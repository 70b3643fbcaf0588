// A consumer waits on a sync.Cond for the producer's "ready" signal, but
// waits unconditionally instead of in a loop on the condition: it assumes
// it always starts waiting before the producer signals. When the Signal
// comes first, it finds no waiter and is lost; the consumer then waits
// forever, and so does the test, which waits for the consumer: a global
// deadlock.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the producer signals 20 ms after the consumer started waiting, so the
// Signal always finds its waiter. Which of the Wait and the Signal comes
// first decides whether the Signal is lost, and no detector reorders a
// Cond's operations or predicts a lost Signal. What finds it: the
// producer's critical section before the consumer's (the
// prediction-guided strategy's lock orders): the Signal then has no
// waiter. (The pair-flip strategy's Wait/Signal flip alone did not find
// it in a campaign of 77 runs: the Signal needs the lock the waiter
// holds until it waits, so the flip must move the Lock as well.)
package cond_waits_without_predicate

import (
	"sync"
	"testing"
	"time"
)

func TestConsumerWaitsForReady(t *testing.T) {
	var mu sync.Mutex
	readyCond := sync.NewCond(&mu)
	items := 0
	consumed := make(chan int)
	go func() { // the consumer
		mu.Lock()
		readyCond.Wait() // want: global-deadlock occurred
		n := items
		mu.Unlock()
		consumed <- n
	}()
	go func() { // the producer
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		items = 3
		readyCond.Signal()
		mu.Unlock()
	}()
	if n := <-consumed; n != 3 { // want: global-deadlock occurred
		t.Fatalf("consumed %d items", n)
	}
}
