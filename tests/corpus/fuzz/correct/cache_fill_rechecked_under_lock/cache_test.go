// The shape of fuzz/bugs/cache_fill_checked_under_rlock done right: on a
// miss the caller looks again under the write lock before it fills, so
// only one caller fills and closes `filled`, however the two interleave.
package cache_fill_rechecked_under_lock

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
			mu.Lock()
			if value == nil {
				x := 42
				value = &x
				close(filled)
			}
			mu.Unlock()
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
