// Transfer locks the source account, then the destination account. The test
// runs a transfer from alice to bob and, 50 ms later, one from bob to alice,
// in two goroutines.
//
// Expected: lock-order-deadlock, predicted, at the Lock of the destination
// account (the acquisition that blocks, the same line in both goroutines). In
// the normal run the first transfer is over before the second starts. Only a
// sleep separates them: if each goroutine takes its first lock before either
// takes its second, each waits for the other forever.
package bank

import (
	"errors"
	"sync"
	"testing"
	"time"
)

type Account struct {
	mu      sync.Mutex
	ID      string
	Balance int
}

var errFunds = errors.New("insufficient funds")

func Transfer(from, to *Account, amount int) error {
	from.mu.Lock()
	defer from.mu.Unlock()
	if from.Balance < amount {
		return errFunds
	}
	to.mu.Lock() // want: lock-order-deadlock predicted
	defer to.mu.Unlock()
	from.Balance -= amount
	to.Balance += amount
	return nil
}

func TestConcurrentTransfers(t *testing.T) {
	alice := &Account{ID: "alice", Balance: 100}
	bob := &Account{ID: "bob", Balance: 50}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Transfer(alice, bob, 30)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond)
		Transfer(bob, alice, 10)
	}()
	wg.Wait()
	if alice.Balance+bob.Balance != 150 {
		t.Fatalf("money created or lost: %d", alice.Balance+bob.Balance)
	}
}
