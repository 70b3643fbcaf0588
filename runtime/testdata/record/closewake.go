// Expected: exits 0 at once after closing done. Three goroutines wait on
// done (two plain receives, one in a select with a nil channel case); main
// closes done and returns, usually before they run again. Their records
// must still be complete: the close completes the records of the goroutines
// it wakes (ChanRecv with kClosed and a tpost; the chosen SelectCase on done
// with kClosed), so an analysis does not see them as blocked forever.
package main

import "time"

func main() {
	done := make(chan struct{})
	var never chan int
	for i := 0; i < 2; i++ {
		go func() { <-done }()
	}
	go func() {
		select {
		case <-done:
		case <-never:
		}
	}()
	time.Sleep(50 * time.Millisecond)
	close(done)
}
