// Query's twin: cancel is deferred before anything can return.
package query

import "context"

func Query(timeout bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := make(chan int)
	go func() {
		select {
		case res <- 1:
		case <-ctx.Done():
		}
	}()
	if timeout {
		return
	}
	<-res
}
