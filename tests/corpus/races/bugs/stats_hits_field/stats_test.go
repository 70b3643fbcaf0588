// A request counter kept in a plain struct field: two handlers run in their
// own goroutines and each bumps s.hits with s.hits++, a read and a write that
// nothing orders against the other goroutine's. The WaitGroup orders both
// handlers before the test reads the total, but not the handlers against
// each other.
// Expected: data-race occurred at the increment (Go's race detector, with
// -race), both accesses on that line.
package stats

import (
	"sync"
	"testing"
)

type Stats struct {
	hits int
}

func (s *Stats) Hit() {
	s.hits++ // want: data-race occurred
}

func TestHandlersCountHits(t *testing.T) {
	s := &Stats{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Hit()
		}()
	}
	wg.Wait()
	if s.hits < 1 {
		t.Fatalf("hits = %d", s.hits)
	}
}
