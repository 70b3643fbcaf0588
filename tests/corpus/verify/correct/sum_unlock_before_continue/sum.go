// Sum's twin: unlock before continue.
package sum

import "sync"

func Sum(items []int) int {
	var mu sync.Mutex
	total := 0
	for _, it := range items {
		mu.Lock()
		if it < 0 {
			mu.Unlock()
			continue
		}
		total += it
		mu.Unlock()
	}
	return total
}
