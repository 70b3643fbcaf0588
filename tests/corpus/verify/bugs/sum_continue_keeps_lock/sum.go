// Sum skips negative items with continue while holding the lock.
package sum

import "sync"

func Sum(items []int) int {
	var mu sync.Mutex
	total := 0
	for _, it := range items {
		mu.Lock() // want: double-lock predicted
		if it < 0 {
			continue
		}
		total += it
		mu.Unlock()
	}
	return total
}
