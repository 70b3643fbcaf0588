// Serve's twin: the loop takes the queued jobs too.
package queue

import "time"

var flushes, done int

func Serve() {
	jobs := make(chan int, 4)
	t := time.NewTicker(time.Second)
	jobs <- 1 // nowant: undelivered-message
	for {
		select {
		case <-t.C:
			flushes++
		case j := <-jobs:
			done += j
		}
	}
}
