// sync.WaitGroup.Go (Go 1.25): Go increments the counter before it starts the
// goroutine and decrements it when the function returns, so the
// Add-inside-the-goroutine mistake cannot happen. Results are written under a
// mutex and read after Wait. Expected: no findings.
package wggo

import (
	"strings"
	"sync"
	"testing"
)

func CountWords(docs []string) map[string]int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	for _, d := range docs {
		wg.Go(func() {
			local := map[string]int{}
			for _, w := range strings.Fields(strings.ToLower(d)) {
				local[w]++
			}
			mu.Lock()
			for w, n := range local {
				counts[w] += n
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	return counts
}

func TestCountWords(t *testing.T) {
	got := CountWords([]string{"Go is fun", "go go go", "fun fun"})
	if got["go"] != 4 || got["fun"] != 3 || got["is"] != 1 {
		t.Fatalf("got %v", got)
	}
}
