// Fetch runs get on a goroutine of its own and returns early when its
// context is cancelled. When the cancellation comes first, the goroutine's
// send on the unbuffered result channel has no receiver any more.
package fetch

import "context"

func Fetch(ctx context.Context, get func() int) (int, error) {
	result := make(chan int)
	go func() {
		result <- get() // want: goroutine-leak predicted chan-send
	}()
	select {
	case v := <-result:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
