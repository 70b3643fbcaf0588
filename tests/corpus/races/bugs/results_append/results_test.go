// Workers append their results to one shared slice. append reads the slice
// header, may write the backing array and writes the header back; two
// workers doing it at once lose results. The WaitGroup orders the workers
// before the check, not against each other.
// Expected: data-race occurred at the append (the header write).
package results

import (
	"sync"
	"testing"
)

func square(n int) int { return n * n }

func TestWorkersCollectSquares(t *testing.T) {
	var results []int
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			results = append(results, square(n)) // want: data-race occurred
		}(i)
	}
	wg.Wait()
	if len(results) == 0 {
		t.Fatal("no results")
	}
}
