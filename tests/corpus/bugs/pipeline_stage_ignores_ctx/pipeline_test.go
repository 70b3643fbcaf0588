// A two-stage pipeline (source -> square -> consumer) is given a
// context.Context for cancellation, but the square stage never looks at it: it
// sends its results without selecting on ctx.Done(). The consumer takes the first two results and
// cancels; the square stage is left blocked on its next send forever and
// outlives the test.
//
// Expected: goroutine-leak, occurred, chan-send, at the square stage's send.
// The source is filled up front (five numbers, buffered), so the square stage
// always has a third number to send when the consumer stops reading.
package pipeline

import (
	"context"
	"testing"
)

func source(nums ...int) <-chan int {
	out := make(chan int, len(nums))
	for _, n := range nums {
		out <- n
	}
	close(out)
	return out
}

func square(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			_ = ctx // TODO: select on ctx.Done() here
			out <- n * n // want: goroutine-leak occurred chan-send
		}
	}()
	return out
}

func TestFirstTwoSquares(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := square(ctx, source(1, 2, 3, 4, 5))
	got := []int{<-results, <-results}
	cancel()
	if got[0] != 1 || got[1] != 4 {
		t.Fatalf("got %v", got)
	}
}
