// A rate limiter keeps its tokens in a buffered channel; TryTake takes one
// only when one is there (len(tokens) > 0), so that a caller never waits.
// The check and the receive are two steps: when both callers check before
// either takes, both receive; the second receive waits forever for a
// token nobody refills, and so does the test, which waits for both
// callers: a global deadlock.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the second caller comes 20 ms after the first, whose check and receive
// take nanoseconds, so the second always finds no token and skips its
// receive. len(ch) is not an operation the recorder sees: the trace holds
// one receive and a second caller that received nothing, and no reordering
// of recorded operations makes it receive. What finds it: a delay point
// (the delay strategy) that holds the first caller at its receive until
// the second has checked; both then receive.
package token_taken_after_len_check

import (
	"sync"
	"testing"
	"time"
)

type limiter struct{ tokens chan struct{} }

func (l *limiter) TryTake() bool {
	if len(l.tokens) > 0 {
		<-l.tokens // want: global-deadlock occurred
		return true
	}
	return false
}

func TestTryTakeNeverWaits(t *testing.T) {
	l := &limiter{tokens: make(chan struct{}, 1)}
	l.tokens <- struct{}{}
	var wg sync.WaitGroup
	var taken [2]bool
	wg.Add(2)
	go func() {
		defer wg.Done()
		taken[0] = l.TryTake()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		taken[1] = l.TryTake()
	}()
	wg.Wait() // want: global-deadlock occurred
	if taken[0] == taken[1] {
		t.Fatalf("one token taken %v", taken)
	}
}
