// Update returns on failure with the mutex still locked: the helper that
// waits for it never gets it.
package update

import "sync"

func Update(fail bool) {
	var mu sync.Mutex
	done := make(chan bool, 1)
	mu.Lock()
	go func() {
		mu.Lock() // want: goroutine-leak predicted mutex
		mu.Unlock()
		done <- true
	}()
	if fail {
		return
	}
	mu.Unlock()
	<-done
}
