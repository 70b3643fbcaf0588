// The caller gives up after a while from another goroutine; get answers at
// once, so the run never shows the cancellation first.
package fetch

import (
	"context"
	"testing"
	"time"
)

func TestFetch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	if v, err := Fetch(ctx, func() int { return 7 }); err != nil || v != 7 {
		t.Fatalf("Fetch = %d, %v", v, err)
	}
}
