// Fetch runs a lookup in a goroutine and returns its result, or what it has
// so far with the context's error when the context ends first. The lookup
// writes the shared result variable; on the answer branch the close of done
// orders that write before the read, on the context branch nothing does:
// the read of result races with the lookup's write (data race).
//
// Why `go test -race` and `gordian test -race` do not show it: the lookup
// answers at once, long before the test's one-second deadline, so the
// context branch never runs. What finds it: `gordian fuzz -race`, whose
// select strategy takes the context's case (it waits for the deadline), so
// the read on that branch runs beside the lookup's write.
package fetch_result_read_on_deadline

import (
	"context"
	"testing"
	"time"
)

func Fetch(ctx context.Context, lookup func() string) (string, error) {
	var result string
	done := make(chan struct{})
	go func() {
		result = lookup() // want: data-race occurred
		close(done)
	}()
	select {
	case <-done:
		return result, nil
	case <-ctx.Done():
		return result, ctx.Err()
	}
}

func TestFetchAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := Fetch(ctx, func() string { return "ok" }); err != nil && err != context.DeadlineExceeded {
		t.Fatal(err)
	}
}
