// Query returns on timeout before it defers cancel: the worker, which
// waits for its result to be taken or the context to end, stays blocked.
package query

import "context"

func Query(timeout bool) {
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan int)
	go func() {
		select { // want: goroutine-leak predicted select
		case res <- 1:
		case <-ctx.Done():
		}
	}()
	if timeout {
		return
	}
	defer cancel()
	<-res
}
