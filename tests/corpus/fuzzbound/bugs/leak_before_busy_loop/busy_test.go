// A test that leaks a goroutine early (a result nobody receives) and then
// does a great many channel operations: its runs record hundreds of
// thousands of operations each, which a fuzzing campaign must still
// analyse within its bound.
// Expected: goroutine-leak (chan-send), occurred, at the unread result.
package leak_before_busy_loop

import "testing"

func TestLeakThenBusy(t *testing.T) {
	results := make(chan int)
	go func() {
		results <- 42 // want: goroutine-leak occurred chan-send
	}()
	work := make(chan int, 64)
	done := make(chan int)
	go func() {
		sum := 0
		for v := range work {
			sum += v
		}
		done <- sum
	}()
	for i := 0; i < 200000; i++ {
		work <- i
	}
	close(work)
	<-done
}
