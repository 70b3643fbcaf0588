// A router goroutine serves jobs until its quit channel is closed; a shutdown
// goroutine closes quit after a 50 ms drain period. main sends three jobs and
// reads the three results, then waits for the router to exit.
//
// Expected: global-deadlock, predicted, at main's send on jobs. In the normal
// run all jobs are served within microseconds and quit is closed later. The
// close is not ordered after the sends: if it comes first, the router's select
// takes the quit case and returns, the shutdown goroutine is finished, and main
// blocks forever on its send: every goroutine is blocked or gone.
package main

import (
	"fmt"
	"time"
)

func route(jobs <-chan string, results chan<- string, quit <-chan struct{}, exited chan<- struct{}) {
	defer close(exited)
	for {
		select {
		case j := <-jobs:
			results <- "routed " + j
		case <-quit:
			return
		}
	}
}

func main() {
	jobs := make(chan string)
	results := make(chan string, 3)
	quit := make(chan struct{})
	exited := make(chan struct{})
	go route(jobs, results, quit, exited)
	go func() {
		time.Sleep(50 * time.Millisecond) // drain period
		close(quit)
	}()

	for _, j := range []string{"/api/users", "/api/orders", "/healthz"} {
		jobs <- j // want: global-deadlock predicted
	}
	for i := 0; i < 3; i++ {
		fmt.Println(<-results)
	}
	<-exited
}
