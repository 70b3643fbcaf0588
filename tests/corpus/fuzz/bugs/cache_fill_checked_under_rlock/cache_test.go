// A cache fills its entry on a miss: a caller looks under the read lock,
// and on a miss computes the value, stores it under the write lock and
// announces the fill by closing `filled`. The look and the store are two
// critical sections: when both callers look before either stores, both
// fill, and the second close panics (close of closed channel).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the second caller comes 10 ms after the first, which looks, stores and
// closes at once, so the second always finds the value; its fill is on the
// miss branch, which the recorded run took only once, so the trace holds a
// single close. What finds it: a delay point (the delay strategy) that
// holds the first caller at its Lock until the second has looked; the
// other order of the first's Lock and the second's RLock (the
// prediction-guided strategy's lock orders) does too.
package cache_fill_checked_under_rlock

import (
	"sync"
	"testing"
	"time"
)

func TestFillOnMiss(t *testing.T) {
	var mu sync.RWMutex
	var value *int
	filled := make(chan struct{})
	var wg sync.WaitGroup
	get := func() {
		defer wg.Done()
		mu.RLock()
		v := value
		mu.RUnlock()
		if v == nil {
			x := 42
			mu.Lock()
			value = &x
			mu.Unlock()
			close(filled) // want: close-of-closed occurred
		}
	}
	wg.Add(2)
	go get()
	go func() {
		time.Sleep(10 * time.Millisecond)
		get()
	}()
	<-filled
	wg.Wait()
}
