// Transfer locks a then b in one goroutine and b then a in the other.
package transfer

import "sync"

func Transfer() {
	var a, b sync.Mutex
	done := make(chan bool)
	go func() {
		a.Lock()
		b.Lock() // want: lock-order-deadlock predicted
		b.Unlock()
		a.Unlock()
		done <- true
	}()
	b.Lock()
	a.Lock() // want: lock-order-deadlock predicted
	a.Unlock()
	b.Unlock()
	<-done
}
