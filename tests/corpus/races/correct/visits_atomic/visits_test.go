// A visit counter updated with sync/atomic from two goroutines: atomic
// operations on one variable never race with each other.
// Expected: no findings.
package visits

import (
	"sync"
	"sync/atomic"
	"testing"
)

type Counter struct {
	n atomic.Int64
}

func TestCountVisits(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.n.Add(1)
		}()
	}
	wg.Wait()
	if c.n.Load() != 2 {
		t.Fatalf("visits = %d", c.n.Load())
	}
}
