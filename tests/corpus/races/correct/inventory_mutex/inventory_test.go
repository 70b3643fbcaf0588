// Stock counts in a map guarded by one mutex: every read and write of the
// map holds the lock, so the accesses of the two restocking goroutines and
// the final check are ordered by the lock.
// Expected: no findings.
package inventory

import (
	"sync"
	"testing"
)

type Inventory struct {
	mu    sync.Mutex
	stock map[string]int
}

func (inv *Inventory) Add(item string, n int) {
	inv.mu.Lock()
	inv.stock[item] += n
	inv.mu.Unlock()
}

func (inv *Inventory) Count(item string) int {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.stock[item]
}

func TestRestockInParallel(t *testing.T) {
	inv := &Inventory{stock: map[string]int{}}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inv.Add("apple", 5)
		}()
	}
	wg.Wait()
	if got := inv.Count("apple"); got != 10 {
		t.Fatalf("apples = %d", got)
	}
}
