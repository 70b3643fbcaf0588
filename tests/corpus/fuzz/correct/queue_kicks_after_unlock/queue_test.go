// The twin of fuzz/bugs/queue_kicks_under_lock: Submit unlocks before it
// kicks the dispatcher, so a dispatcher that took the retry timer first
// gets the lock in requeue, comes back to its select and takes the kick.
// Expected: no findings.
package queue_kicks_after_unlock

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Queue struct {
	mu      sync.Mutex
	pending []string
	failed  []string
	done    []string
	kick    chan struct{}
}

func (q *Queue) Submit(job string) {
	q.mu.Lock()
	q.pending = append(q.pending, job)
	q.mu.Unlock()
	q.kick <- struct{}{}
}

func (q *Queue) requeue() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.failed)
	q.pending = append(q.pending, q.failed...)
	q.failed = nil
	return n
}

func (q *Queue) retryFailed() {
	if q.requeue() > 0 {
		q.dispatch()
	}
}

func (q *Queue) dispatch() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done = append(q.done, q.pending...)
	q.pending = nil
}

func (q *Queue) run(ctx context.Context, retryEvery time.Duration) {
	retry := time.NewTimer(retryEvery)
	defer retry.Stop()
	for {
		select {
		case <-q.kick:
			q.dispatch()
		case <-retry.C:
			q.retryFailed()
			retry.Reset(retryEvery)
		case <-ctx.Done():
			return
		}
	}
}

func TestSubmitWakesDispatcher(t *testing.T) {
	q := &Queue{kick: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		q.run(ctx, 20*time.Millisecond)
		close(stopped)
	}()
	q.Submit("resize")
	cancel()
	<-stopped
}
