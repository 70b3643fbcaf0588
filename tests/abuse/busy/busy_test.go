// A test that leaks a goroutine and then does 300,000 channel operations:
// scripts/abuse records it with the cache on a 12 MB filesystem, where its
// trace cannot fit (disk-full-trace).
package busy

import "testing"

func TestLeakThenBusy(t *testing.T) {
	results := make(chan int)
	go func() { results <- 42 }()
	work := make(chan int, 64)
	done := make(chan int)
	go func() {
		s := 0
		for v := range work {
			s += v
		}
		done <- s
	}()
	for i := 0; i < 300000; i++ {
		work <- i
	}
	close(work)
	<-done
}
