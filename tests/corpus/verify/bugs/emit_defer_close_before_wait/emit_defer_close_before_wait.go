// Emit defers wg.Wait and then close(out): defers run last-in first-out,
// so out is closed before the emitters are waited for, and a late emitter
// sends on the closed channel.
package emit

import "sync"

func Emit(n int) {
	out := make(chan int, n)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(out)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			out <- v // want: send-on-closed predicted
		}(i)
	}
}
