// Transfer's twin: both lock a before b.
package transfer

import "sync"

func Transfer() {
	var a, b sync.Mutex
	done := make(chan bool)
	go func() {
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
		done <- true
	}()
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
	<-done
}
