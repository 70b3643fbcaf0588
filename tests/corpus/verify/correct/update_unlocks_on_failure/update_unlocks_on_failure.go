// Update's twin: the failure path unlocks too.
package update

import "sync"

func Update(fail bool) {
	var mu sync.Mutex
	done := make(chan bool, 1)
	mu.Lock()
	go func() {
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	if fail {
		mu.Unlock()
		return
	}
	mu.Unlock()
	<-done
}
