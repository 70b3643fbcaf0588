// Serve's twin: the loop takes the queued jobs too. (Its tick case is
// empty, for SPIN: see correct/monitor_reads_result.)
package queue

import "time"

var done int

func Serve() {
	jobs := make(chan int, 4)
	t := time.NewTicker(time.Second)
	jobs <- 1 // nowant: undelivered-message
	for {
		select {
		case <-t.C:
		case j := <-jobs:
			done += j
		}
	}
}
