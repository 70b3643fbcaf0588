// First-result search with context.Context: three replicas are queried in
// parallel, the first answer wins and cancels the context. The results channel
// is buffered for all replicas, so the losers' sends never block, and Search
// waits for every replica goroutine before it returns. Expected: no findings.
package search

import (
	"context"
	"sync"
	"testing"
)

type Hit struct {
	Replica string
	Doc     string
}

func query(ctx context.Context, replica, q string) (Hit, error) {
	if err := ctx.Err(); err != nil {
		return Hit{}, err
	}
	return Hit{replica, "doc about " + q}, nil
}

func Search(ctx context.Context, q string, replicas []string) Hit {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan Hit, len(replicas))
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h, err := query(ctx, r, q); err == nil {
				results <- h
			}
		}()
	}
	first := <-results
	cancel()
	wg.Wait()
	return first
}

func TestSearch(t *testing.T) {
	h := Search(context.Background(), "golang", []string{"r1", "r2", "r3"})
	if h.Doc != "doc about golang" {
		t.Fatalf("got %+v", h)
	}
}
