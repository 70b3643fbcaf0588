// Stream closes its output before its senders are done.
package stream

import "sync"

func Stream(items []int) {
	out := make(chan int, len(items))
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			out <- v // want: send-on-closed predicted
		}(it)
	}
	close(out)
	wg.Wait()
}
