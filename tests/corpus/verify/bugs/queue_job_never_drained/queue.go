// Serve queues a first job in its buffered queue, then runs its flush
// loop forever, which never takes jobs from the queue: the job stays in
// the buffer for good. Nobody blocks (the queue has room), so only
// eventual reception sees it.
package queue

import "time"

var flushes int

func Serve() {
	jobs := make(chan int, 4)
	t := time.NewTicker(time.Second)
	jobs <- 1 // want: undelivered-message predicted
	for range t.C {
		flushes++
	}
}
