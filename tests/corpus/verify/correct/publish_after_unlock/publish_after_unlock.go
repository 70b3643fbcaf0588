// Publish's twin: the receive is outside the lock.
package publish

import "sync"

func Publish() {
	var mu sync.Mutex
	ch := make(chan int)
	go func() {
		mu.Lock()
		mu.Unlock()
		ch <- 1
	}()
	mu.Lock()
	mu.Unlock()
	<-ch
}
