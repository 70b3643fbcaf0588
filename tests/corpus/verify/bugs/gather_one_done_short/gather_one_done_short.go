// Gather Adds n but starts only n-1 workers: the waiter waits for ever
// (from n = 1 on).
package gather

import "sync"

func Gather(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n-1; i++ {
		go func() { wg.Done() }()
	}
	go func() { wg.Wait() }() // want: goroutine-leak predicted waitgroup
}
