// An invoicing pool: three workers compute invoice totals from a jobs channel.
// A worker treats a line with a negative quantity as impossible and panics;
// the third invoice has one. A panic in any goroutine ends the whole program.
//
// Expected: panic, occurred, at the panic call in total. main waits for the
// workers with a WaitGroup whose Done is not deferred, so the program cannot
// finish before the bad invoice is processed.
package main

import (
	"fmt"
	"sync"
)

type Line struct {
	Item  string
	Qty   int
	Cents int
}

type Invoice struct {
	ID    int
	Lines []Line
}

func total(inv Invoice) int {
	sum := 0
	for _, l := range inv.Lines {
		if l.Qty < 0 {
			panic(fmt.Sprintf("invoice %d: negative quantity for %s", inv.ID, l.Item)) // want: panic occurred
		}
		sum += l.Qty * l.Cents
	}
	return sum
}

func main() {
	invoices := []Invoice{
		{1, []Line{{"coffee", 2, 350}}},
		{2, []Line{{"bagel", 1, 275}, {"juice", 1, 420}}},
		{3, []Line{{"refund", -1, 350}}},
		{4, []Line{{"tea", 3, 300}}},
	}
	jobs := make(chan Invoice)
	var mu sync.Mutex
	totals := map[int]int{}
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			for inv := range jobs {
				t := total(inv)
				mu.Lock()
				totals[inv.ID] = t
				mu.Unlock()
			}
			wg.Done()
		}()
	}
	for _, inv := range invoices {
		jobs <- inv
	}
	close(jobs)
	wg.Wait()
	fmt.Println(totals)
}
