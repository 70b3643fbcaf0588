// Run's worker calls Done on retry and again when it returns.
package retry

import "sync"

func Run(retry bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done() // want: negative-waitgroup predicted
		if retry {
			wg.Done()
		}
	}()
	wg.Wait()
}
