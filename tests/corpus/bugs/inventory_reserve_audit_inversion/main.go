// An inventory service has two locks: stock (quantities) and orders (the order
// book). Reserve takes stock, then orders; Audit, written later by someone
// else, takes orders, then stock. A checkout goroutine reserves items while an
// audit goroutine runs 50 ms later.
//
// Expected: lock-order-deadlock, predicted, at the two inner acquisitions: the
// orders Lock in Reserve and the stock Lock in Audit. In the normal run they
// never overlap; with only a sleep between them, the schedule in which each
// goroutine holds its first lock deadlocks.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Inventory struct {
	stockMu  sync.Mutex
	stock    map[string]int
	ordersMu sync.Mutex
	orders   []string
}

func (inv *Inventory) Reserve(sku string) bool {
	inv.stockMu.Lock()
	defer inv.stockMu.Unlock()
	if inv.stock[sku] == 0 {
		return false
	}
	inv.stock[sku]--
	inv.ordersMu.Lock() // want: lock-order-deadlock predicted
	inv.orders = append(inv.orders, sku)
	inv.ordersMu.Unlock()
	return true
}

func (inv *Inventory) Audit() int {
	inv.ordersMu.Lock()
	defer inv.ordersMu.Unlock()
	inv.stockMu.Lock() // want: lock-order-deadlock predicted
	defer inv.stockMu.Unlock()
	total := len(inv.orders)
	for _, n := range inv.stock {
		total += n
	}
	return total
}

func main() {
	inv := &Inventory{stock: map[string]int{"mug": 3, "shirt": 2}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for _, sku := range []string{"mug", "shirt", "mug"} {
			inv.Reserve(sku)
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // audit runs on a schedule
		fmt.Println("audit total:", inv.Audit())
	}()
	wg.Wait()
}
