// Transfers between accounts that always lock the two accounts in the same
// global order (by account ID), whatever the direction of the transfer. With a
// single lock order there is no cycle, so opposite transfers running at the
// same time cannot deadlock. Expected: no findings.
package bank

import (
	"sync"
	"testing"
)

type Account struct {
	ID      int
	mu      sync.Mutex
	Balance int
}

func Transfer(from, to *Account, amount int) bool {
	first, second := from, to
	if to.ID < from.ID {
		first, second = to, from
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if from.Balance < amount {
		return false
	}
	from.Balance -= amount
	to.Balance += amount
	return true
}

func TestOppositeTransfers(t *testing.T) {
	a := &Account{ID: 1, Balance: 500}
	b := &Account{ID: 2, Balance: 500}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); Transfer(a, b, 7) }()
		go func() { defer wg.Done(); Transfer(b, a, 5) }()
	}
	wg.Wait()
	if a.Balance+b.Balance != 1000 {
		t.Fatalf("total %d", a.Balance+b.Balance)
	}
}
