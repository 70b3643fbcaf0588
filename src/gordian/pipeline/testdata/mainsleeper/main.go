// The main goroutine sleeps 100 ms before its send; a goroutine it spawned
// receives (schedule_runner_test.cc, ReplayEnforcement.TheMainGoroutineAsleepIsNoStall:
// with a stall time shorter than the sleep, main's send must not be
// skipped, as for any other goroutine asleep in time.Sleep).
package main

import "time"

func main() {
	ch := make(chan int)
	done := make(chan struct{})
	go func() {
		<-ch
		close(done)
	}()
	time.Sleep(100 * time.Millisecond)
	ch <- 1
	<-done
}
