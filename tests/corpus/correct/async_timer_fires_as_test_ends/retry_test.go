// correct/timer_fires_as_test_ends with the runtime's asynchronous timer
// channels (a buffer of one that the firing timer fills), as in modules
// whose go.mod predates Go 1.23: a retry loop's goroutine waits on a timer
// of no duration as its subtest returns; the timer fires at once and its
// value reaches the select. A test-end check that looks while the timer is
// being fired must not call the goroutine blocked forever. Expected: no
// findings.

//go:debug asynctimerchan=1

package async_timer_fires_as_test_ends

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
