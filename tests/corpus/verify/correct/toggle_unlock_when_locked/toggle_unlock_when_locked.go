// Toggle's twin: unlock only what was locked.
package toggle

import "sync"

func Toggle(skip bool) {
	var mu sync.Mutex
	if !skip {
		mu.Lock()
		mu.Unlock()
	}
}
