// Squares' twin: a closer goroutine waits for the workers and closes the
// results channel, which ends the range.
package results

import "sync"

func Squares(xs []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			results <- v * v
		}(x)
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	sum := 0
	for r := range results {
		sum += r
	}
	return sum
}
