// Each worker writes only its own element of a results slice (distinct
// memory), and the test reads the slice only after wg.Wait: every Done
// happens before Wait returns, so the workers' writes are ordered before
// the reads.
// Expected: no findings.
package shards

import (
	"sync"
	"testing"
)

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestSumShards(t *testing.T) {
	shards := [][]int{{1, 2}, {3, 4}, {5}}
	partial := make([]int, len(shards))
	var wg sync.WaitGroup
	for i, sh := range shards {
		wg.Add(1)
		go func(i int, sh []int) {
			defer wg.Done()
			partial[i] = sum(sh)
		}(i, sh)
	}
	wg.Wait()
	if sum(partial) != 15 {
		t.Fatalf("total = %d", sum(partial))
	}
}
