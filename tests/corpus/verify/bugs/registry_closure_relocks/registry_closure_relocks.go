// Register holds the registry's lock while it calls a closure that captured
// the same mutex and locks it again to count the new name: the second Lock
// never returns.
package registry

import "sync"

func Register(name string) int {
	var mu sync.Mutex
	names := map[string]bool{}
	count := 0
	bump := func() {
		mu.Lock() // want: double-lock predicted
		count++
		mu.Unlock()
	}
	mu.Lock()
	if !names[name] {
		names[name] = true
		bump()
	}
	mu.Unlock()
	return count
}
