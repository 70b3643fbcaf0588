// Run's twin: one Done per Add.
package retry

import "sync"

func Run(retry bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if retry {
			return
		}
	}()
	wg.Wait()
}
