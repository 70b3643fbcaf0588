// Emit's twin: close(out) is deferred first, so it runs last, after the
// deferred wg.Wait has seen every emitter finish.
package emit

import "sync"

func Emit(n int) {
	out := make(chan int, n)
	var wg sync.WaitGroup
	defer close(out)
	defer wg.Wait()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			out <- v
		}(i)
	}
}
