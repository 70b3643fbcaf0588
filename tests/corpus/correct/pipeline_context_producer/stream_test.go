// A cancellable producer feeding a range loop: Numbers starts a goroutine
// that sends 1..n on out, each send in a select that also watches
// ctx.Done(), and closes out when it returns (defer close(out)). The test
// ranges over out until it is closed and only then, through its deferred
// cancel, closes Done. So the producer's last select happens before
// close(out), which happens before the range loop ends, which happens before
// cancel: in every schedule the producer has returned before Done is closed,
// and no select of the producer can be left waiting. The Done case is there
// for a consumer that stops early (the second test): then cancel closes Done
// while the producer waits in its select, the select takes the Done case and
// the producer returns and closes out; that case drops the value of the
// closed Done, so it is no recv-on-closed either. Expected: no findings.
package stream

import (
	"context"
	"testing"
)

func Numbers(ctx context.Context, n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 1; i <= n; i++ {
			select { // nowant: recv-on-closed
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func TestSumAll(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum := 0
	for v := range Numbers(ctx, 10) {
		sum += v
	}
	if sum != 55 {
		t.Fatalf("sum = %d, want 55", sum)
	}
}

func TestStopEarly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := Numbers(ctx, 1000)
	first := <-out
	cancel()
	for range out { // drains what the producer sent before it saw Done
	}
	if first != 1 {
		t.Fatalf("first = %d, want 1", first)
	}
}
