// The shape of fuzz/bugs/token_taken_after_len_check done right: TryTake
// receives without blocking (a select with a default) instead of checking
// len(ch) first, so whichever order the two callers run in, exactly one
// gets the token and neither waits.
package token_taken_without_blocking

import (
	"sync"
	"testing"
	"time"
)

type limiter struct{ tokens chan struct{} }

func (l *limiter) TryTake() bool {
	select {
	case <-l.tokens:
		return true
	default:
		return false
	}
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
	wg.Wait()
	if taken[0] == taken[1] {
		t.Fatalf("one token taken %v", taken)
	}
}
