// The shape of fuzz/bugs/cond_waits_without_predicate done right: the
// consumer waits in a loop on the condition (items > 0) under the lock, so
// a Signal that came before the Wait is not needed: the consumer finds the
// items and does not wait, whichever order the two run in.
package cond_waits_for_predicate

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
		for items == 0 {
			readyCond.Wait()
		}
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
	if n := <-consumed; n != 3 {
		t.Fatalf("consumed %d items", n)
	}
}
