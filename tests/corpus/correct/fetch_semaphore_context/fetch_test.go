// Bounded parallel fetches: a chan struct{} of capacity 2 is a semaphore.
// Each fetch acquires a slot with `sem <- struct{}{}` in a select that also
// watches ctx.Done() (so a cancelled caller never waits for a slot), and
// releases it with a deferred `<-sem`. Every acquire that succeeded is
// released exactly once, so the semaphore never stays full; FetchAll waits
// for every fetch before it returns. The second test cancels first: every
// fetch then either takes a free slot or sees Done (a receive that drops
// the value of a closed chan struct{}: no recv-on-closed), and returns at
// once. Expected: no findings.
package fetch

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
)

func FetchAll(ctx context.Context, urls []string, sem chan struct{}) (fetched int64) {
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select { // nowant: recv-on-closed
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if ctx.Err() == nil && len(u) > 0 {
				atomic.AddInt64(&fetched, 1)
			}
		}()
	}
	wg.Wait()
	return fetched
}

func TestFetchAllBounded(t *testing.T) {
	sem := make(chan struct{}, 2)
	urls := []string{"a", "b", "c", "d", "e", "f"}
	if n := FetchAll(context.Background(), urls, sem); n != 6 {
		t.Fatalf("fetched %d, want 6", n)
	}
	if len(sem) != 0 {
		t.Fatalf("%d slots still held", len(sem))
	}
}

func TestFetchAllCancelled(t *testing.T) {
	sem := make(chan struct{}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n := FetchAll(ctx, []string{"a", "b", "c"}, sem); n != 0 {
		t.Fatalf("fetched %d after cancel, want 0", n)
	}
	if len(sem) != 0 {
		t.Fatalf("%d slots still held", len(sem))
	}
}
