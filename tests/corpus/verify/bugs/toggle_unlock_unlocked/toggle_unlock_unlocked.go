// Toggle unlocks a mutex it locked only sometimes.
package toggle

import "sync"

func Toggle(skip bool) {
	var mu sync.Mutex
	if !skip {
		mu.Lock()
	}
	mu.Unlock() // want: unlock-of-unlocked predicted
}
