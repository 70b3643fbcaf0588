// Fetch runs get on a goroutine of its own and returns early when its
// context is cancelled. The result channel has room for the result, so a
// goroutine whose result comes after the cancellation still ends.
package fetch

import "context"

func Fetch(ctx context.Context, get func() int) (int, error) {
	result := make(chan int, 1) // a late result has room
	go func() {
		result <- get()
	}()
	select {
	case v := <-result:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}
