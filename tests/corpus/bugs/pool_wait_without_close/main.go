// A resize pool: three workers range over the jobs channel and send results to
// a buffered channel. main submits all jobs and waits for the workers, but it
// never closes jobs, so the workers wait for more work forever while main waits
// for them.
//
// Expected: global-deadlock, occurred, with one want per blocked operation: the
// workers' range receive (all three workers block on that line) and main's
// wg.Wait. Go's own detector also reports this one.
package main

import (
	"fmt"
	"sync"
)

type Job struct {
	ID     int
	Width  int
	Height int
}

func worker(jobs <-chan Job, results chan<- string, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs { // want: global-deadlock occurred
		results <- fmt.Sprintf("job %d: %dx%d", j.ID, j.Width/2, j.Height/2)
	}
}

func main() {
	jobs := make(chan Job)
	results := make(chan string, 10)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go worker(jobs, results, &wg)
	}
	for i := 1; i <= 5; i++ {
		jobs <- Job{ID: i, Width: 100 * i, Height: 80 * i}
	}
	wg.Wait() // want: global-deadlock occurred
	close(results)
	for r := range results {
		fmt.Println(r)
	}
}
