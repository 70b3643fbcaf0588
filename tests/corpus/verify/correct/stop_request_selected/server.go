// Serve's twin: the loop returns on stop.
package server

import "time"

var served int

func Serve() {
	reqs := make(chan int)
	stop := make(chan struct{})
	t := time.NewTicker(time.Second)
	defer t.Stop()
	go func() {
		reqs <- 1
		stop <- struct{}{}
	}()
	for {
		select {
		case r := <-reqs:
			served += r
		case <-t.C:
		case <-stop:
			return
		}
	}
}
