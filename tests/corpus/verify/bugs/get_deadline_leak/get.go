// Get waits for a result or its deadline; after the deadline nobody takes
// the result.
package get

import (
	"context"
	"time"
)

func Get(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	res := make(chan int)
	go func() {
		res <- 1 // want: goroutine-leak predicted chan-send
	}()
	select {
	case <-res:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
