// Job queue with retries. A dispatcher feeds jobs into a buffered queue as
// they arrive (one every 50 ms) and closes the queue after the last one. A
// worker runs each job; a job that fails is put back into the queue for one
// more attempt. Here the first job fails once and is retried at once, long
// before the dispatcher closes the queue, so a normal run works.
//
// Bug: nothing but timing keeps the retry ahead of the close. If the first
// job's retry comes after the dispatcher's close (a slow job, a busy machine),
// the worker sends on a closed channel and the program panics.
//
// gordian reports: send-on-closed, predicted, at the retry send.
package main

import (
	"fmt"
	"time"
)

type Job struct {
	ID       int
	Attempts int
}

func run(j Job) error {
	if j.ID == 1 && j.Attempts == 1 {
		return fmt.Errorf("job %d: connection reset", j.ID)
	}
	return nil
}

func worker(queue chan Job, done chan<- struct{}) {
	for j := range queue {
		j.Attempts++
		if err := run(j); err != nil {
			fmt.Println("retrying:", err)
			queue <- j // want: send-on-closed predicted
			continue
		}
		fmt.Printf("job %d done after %d attempt(s)\n", j.ID, j.Attempts)
	}
	close(done)
}

func main() {
	queue := make(chan Job, 10)
	done := make(chan struct{})
	go worker(queue, done)

	for id := 1; id <= 3; id++ {
		queue <- Job{ID: id}
		time.Sleep(50 * time.Millisecond) // jobs arrive over time
	}
	close(queue)
	<-done
}
