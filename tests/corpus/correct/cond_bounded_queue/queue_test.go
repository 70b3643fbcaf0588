// A bounded queue on sync.Cond: Put waits while full, Take while empty, both in
// a loop that re-checks the condition; every state change Broadcasts. Close
// sets a flag and Broadcasts; Take returns false once the queue is closed and
// drained, so no consumer waits forever. Expected: no findings.
package queue

import (
	"sync"
	"testing"
)

type Queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []int
	max    int
	closed bool
}

func New(max int) *Queue {
	q := &Queue{max: max}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(v int) {
	q.mu.Lock()
	for len(q.items) == q.max {
		q.cond.Wait()
	}
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *Queue) Take() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.cond.Broadcast() // a slot is free
	return v, true
}

func (q *Queue) Close() {
	q.mu.Lock()
	defer q.cond.Broadcast()
	defer q.mu.Unlock()
	q.closed = true
}

func TestProducerConsumers(t *testing.T) {
	q := New(2)
	var wg sync.WaitGroup
	sums := make([]int, 3)
	for c := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v, ok := q.Take(); ok; v, ok = q.Take() {
				sums[c] += v
			}
		}()
	}
	for i := 1; i <= 10; i++ {
		q.Put(i)
	}
	q.Close()
	wg.Wait()
	if sums[0]+sums[1]+sums[2] != 55 {
		t.Fatalf("sums %v", sums)
	}
}
