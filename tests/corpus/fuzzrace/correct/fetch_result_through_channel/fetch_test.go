// The twin of bugs/fetch_result_read_on_deadline: the lookup sends its
// result on a buffered channel instead of writing a shared variable, so the
// context branch has nothing to read that the lookup writes.
// `gordian fuzz -race` takes both branches and finds no race.
package fetch_result_through_channel

import (
	"context"
	"testing"
	"time"
)

func Fetch(ctx context.Context, lookup func() string) (string, error) {
	result := make(chan string, 1)
	go func() { result <- lookup() }()
	select {
	case r := <-result:
		return r, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func TestFetchAnswers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := Fetch(ctx, func() string { return "ok" }); err != nil && err != context.DeadlineExceeded {
		t.Fatal(err)
	}
}
