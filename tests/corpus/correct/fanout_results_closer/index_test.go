// Fan-out with a results closer, errgroup style: one goroutine per file
// sends its word count on results in a select that also watches ctx.Done();
// a separate goroutine waits for all of them (wg.Wait) and only then closes
// results, so the consumer's range loop ends after the last send in every
// schedule and no send can meet a closed channel. A file that fails records
// the first error and cancels the context; the remaining senders then give
// up through the Done case instead of blocking, and the consumer still reads
// until results is closed. The Done case drops the value it receives, so
// seeing Done closed is no recv-on-closed. Expected: no findings.
package index

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

var errEmpty = errors.New("empty file")

func CountWords(ctx context.Context, files []string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for _, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if f == "" {
				once.Do(func() { first = errEmpty })
				cancel()
				return
			}
			select { // nowant: recv-on-closed
			case results <- len(strings.Fields(f)):
			case <-ctx.Done():
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	total := 0
	for n := range results {
		total += n
	}
	return total, first
}

func TestCountWords(t *testing.T) {
	n, err := CountWords(context.Background(), []string{"a b", "c d e", "f"})
	if err != nil || n != 6 {
		t.Fatalf("got %d, %v; want 6, nil", n, err)
	}
}

func TestFirstErrorCancels(t *testing.T) {
	_, err := CountWords(context.Background(), []string{"a b", "", "c", ""})
	if !errors.Is(err, errEmpty) {
		t.Fatalf("got %v, want errEmpty", err)
	}
}
