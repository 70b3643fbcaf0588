// sync.WaitGroup with Add in a loop and Done in each worker.
//
// The trace must contain: three WgAdd +1 at @add with counters 1, 2, 3;
// three WgAdd -1 at @done (one per worker goroutine 1.0, 1.1, 1.2); one
// WgWait at @wait in goroutine 1 whose tpost is after the tpre of every
// Done.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	results := make([]int, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1) //@add
		go func(i int) {
			results[i] = i * i
			wg.Done() //@done
		}(i)
	}
	wg.Wait() //@wait
	fmt.Println(results)
}
