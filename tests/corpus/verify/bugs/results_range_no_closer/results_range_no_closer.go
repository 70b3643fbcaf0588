// Squares ranges over the results of its workers, but nobody closes the
// results channel: after the last result the range waits for ever and,
// the workers being done, the whole program is blocked.
package results

import "sync"

func Squares(xs []int) int {
	results := make(chan int, len(xs))
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			results <- v * v
		}(x)
	}
	sum := 0
	for r := range results { // want: global-deadlock predicted
		sum += r
	}
	wg.Wait()
	return sum
}
