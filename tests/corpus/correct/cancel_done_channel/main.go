// Cancellation with a done channel: workers consume ticks of work in a select
// loop that also watches done. main lets them process a fixed number of tasks
// (it receives exactly that many results), then closes done and waits for the
// workers and the task feeder with a WaitGroup. Workers send results in a select that also
// watches done, so none can block on a send after main stops reading.
// Expected: no findings.
package main

import (
	"fmt"
	"sync"
)

func worker(id int, tasks <-chan int, results chan<- string, done <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case t := <-tasks:
			select {
			case results <- fmt.Sprintf("worker %d did task %d", id, t):
			case <-done:
				return
			}
		case <-done:
			return
		}
	}
}

func main() {
	tasks := make(chan int)
	results := make(chan string)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go worker(i, tasks, results, done, &wg)
	}
	wg.Add(1)
	go func() { // task feeder
		defer wg.Done()
		for t := 1; ; t++ {
			select {
			case tasks <- t:
			case <-done:
				return
			}
		}
	}()
	for i := 0; i < 5; i++ {
		<-results
	}
	close(done)
	wg.Wait()
	fmt.Println("processed 5 tasks, workers stopped")
}
