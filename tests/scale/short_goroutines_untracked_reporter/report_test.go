// 20,000 short-lived goroutines each take a job from a buffered queue, send
// its result on a buffered results channel and add it to a mutex-guarded
// total, then call Done: the shape of the 100,000-goroutine "reporter"
// suite (bench/run-race-bench runs this file with 100,000; tests/scale/scale_test.cc
// checks the findings at 20,000). A progress reporter,
// started before them, sends one more value on the results channel, but the
// WaitGroup that the test waits on before it closes the results does not
// count the reporter.
//
// Expected: send-on-closed, predicted, at the reporter's send: in another
// schedule the reporter runs only after the last worker's Done and the
// test's close(results), and its send panics. In the normal run the reporter
// sends right after it starts, long before 20,000 goroutines have finished;
// nothing orders its send before the close (the happens-before analysis sees
// them as concurrent). Nothing else is wrong: the workers' sends happen
// before the close through the WaitGroup, the queue is filled before they
// start, and the total is guarded.
package reporter

import (
	"sync"
	"testing"
)

const workers = 20000

func TestShortGoroutinesWithReporter(t *testing.T) {
	jobs := make(chan int, workers)
	results := make(chan int, workers+1)
	for i := 0; i < workers; i++ {
		jobs <- i
	}
	go func() {
		results <- -1 // want: send-on-closed predicted
	}()
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := <-jobs
			results <- v
			mu.Lock()
			total += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(results)
	count := 0
	for range results {
		count++
	}
	if count != workers+1 || total != workers*(workers-1)/2 {
		t.Fatalf("got %d results, total %d", count, total)
	}
}
