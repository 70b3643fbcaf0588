// Acquire returns the mutex's Unlock as a method value for the caller to
// release with; Update releases it once itself and once in a defer.
package release

import "sync"

var mu sync.Mutex

func Acquire() func() {
	mu.Lock()
	return mu.Unlock
}

func Update() {
	release := Acquire()
	defer release() // want: unlock-of-unlocked predicted
	release()
}
