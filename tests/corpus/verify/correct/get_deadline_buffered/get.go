// Get's twin: the result fits in the channel.
package get

import (
	"context"
	"time"
)

func Get(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	res := make(chan int, 1)
	go func() {
		res <- 1
	}()
	select {
	case <-res:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
