// Publish receives while holding the lock its sender needs first.
package publish

import "sync"

func Publish() {
	var mu sync.Mutex
	ch := make(chan int)
	go func() {
		mu.Lock() // want: mixed-deadlock predicted
		ch <- 1 // want: mixed-deadlock predicted
		mu.Unlock()
	}()
	mu.Lock() // want: mixed-deadlock predicted
	<-ch // want: mixed-deadlock predicted
	mu.Unlock()
}
