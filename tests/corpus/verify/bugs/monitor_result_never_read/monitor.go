// Monitor runs a check in a goroutine that reports on an unbuffered
// channel, then loops on its ticker forever without ever reading the
// report: the checker blocks on its send while the loop ticks on.
package monitor

import "time"

var ticks int

func check() int { return 1 }

func Monitor() {
	results := make(chan int)
	t := time.NewTicker(time.Second)
	go func() {
		results <- check() // want: partial-deadlock predicted
	}()
	for range t.C {
		ticks++
	}
}
