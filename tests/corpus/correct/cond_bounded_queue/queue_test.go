// A bounded queue built on sync.Cond: Put waits while the queue is full, Take
// waits while it is empty, both in a for loop that re-checks the condition,
// and every state change Broadcasts. Close sets a flag and Broadcasts, and
// Take returns false once the queue is closed and drained, so no consumer can
// wait forever. Expected: no findings.
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
	q.cond.Broadcast()
	return v, true
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
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
	if total := sums[0] + sums[1] + sums[2]; total != 55 {
		t.Fatalf("total %d", total)
	}
}
