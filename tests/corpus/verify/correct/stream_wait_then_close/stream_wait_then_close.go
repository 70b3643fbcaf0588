// Stream's twin: wait for the senders, then close.
package stream

import "sync"

func Stream(items []int) {
	out := make(chan int, len(items))
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			out <- v
		}(it)
	}
	wg.Wait()
	close(out)
}
