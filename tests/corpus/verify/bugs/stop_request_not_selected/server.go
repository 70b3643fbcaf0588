// Serve's loop selects on requests and its ticker but not on stop, so the
// goroutine asking it to stop blocks on its send while the loop serves on.
package server

import "time"

var served int

func Serve() {
	reqs := make(chan int)
	stop := make(chan struct{})
	t := time.NewTicker(time.Second)
	go func() {
		reqs <- 1
		stop <- struct{}{} // want: partial-deadlock predicted
	}()
	for {
		select {
		case r := <-reqs:
			served += r
		case <-t.C:
		}
	}
}
