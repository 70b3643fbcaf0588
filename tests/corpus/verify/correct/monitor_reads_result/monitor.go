// Monitor's twin: the loop selects on the results too. (Its tick case is
// empty: a statement there gives the loop's counter a step per tick, which
// the checker sees dead but the Promela export keeps, so SPIN's search of
// the endless loop would never end.)
package monitor

import "time"

var last int

func check() int { return 1 }

func Monitor() {
	results := make(chan int)
	t := time.NewTicker(time.Second)
	go func() {
		results <- check()
	}()
	for {
		select {
		case <-t.C:
		case r := <-results:
			last = r
		}
	}
}
