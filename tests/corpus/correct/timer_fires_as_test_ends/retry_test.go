// A retry loop sleeps between attempts in a select on a fresh timer of no
// duration and on a context that is never cancelled; each subtest starts
// the loop in a goroutine and returns at once. The timer fires right away
// and its value reaches the select: nothing is blocked forever. But the
// test-end check may look at the goroutine while the runtime is firing
// its timer (the timer already marked fired, its value not yet handed
// over), and a check that reads "fired timer, goroutine parked on it" as
// "blocked forever" there reports a false goroutine leak now and then. 200
// subtests make that window likely enough to show in one run
// (async_timer_fires_as_test_ends: the same with asynchronous timer
// channels). Expected: no findings.
package timer_fires_as_test_ends

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func retry(ctx context.Context, attempts int, work func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = work(); err == nil {
			return nil
		}
		timer := time.NewTimer(0)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		}
	}
	return err
}

func TestRetryInTheBackground(t *testing.T) {
	for i := 0; i < 200; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			go retry(context.Background(), 2, func() error { return fmt.Errorf("busy") })
		})
	}
}
