// A job queue wakes its dispatcher on an unbuffered channel when a job is
// submitted, and does it while it still holds the queue's lock. The
// dispatcher also retries failed jobs when its retry timer fires, through
// retryFailed, which moves them back to the pending list in requeue under
// the same lock. When the timer wins the dispatcher's select while Submit
// holds the lock and has not yet kicked, the dispatcher waits for the lock
// in requeue and Submit waits for the dispatcher in its send: neither
// moves again (a deadlock of a channel and a mutex).
//
// It takes three orderings at once: the timer before the kick, Submit's
// Lock before requeue's Lock, and the kick after the dispatcher has left
// its select.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the test submits once, long before the retry timer fires, and cancels the
// dispatcher's context right after, so the recorded run never retries and
// its trace has no second Lock to reorder. What finds it: the select
// strategy's preference for the timer's case, then the lock order of that
// run.
package queue_kicks_under_lock

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
	defer q.mu.Unlock()
	q.pending = append(q.pending, job)
	q.kick <- struct{}{} // want: mixed-deadlock occurred
}

func (q *Queue) requeue() int {
	q.mu.Lock() // want: mixed-deadlock occurred
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
