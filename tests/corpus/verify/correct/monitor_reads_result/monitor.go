// Monitor's twin: the loop selects on the results too.
package monitor

import "time"

var ticks, last int

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
			ticks++
		case r := <-results:
			last = r
		}
	}
}
