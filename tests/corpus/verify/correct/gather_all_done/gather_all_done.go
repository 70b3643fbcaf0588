// Gather's twin: one worker per Add.
package gather

import "sync"

func Gather(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() { wg.Done() }()
	}
	go func() { wg.Wait() }()
}
