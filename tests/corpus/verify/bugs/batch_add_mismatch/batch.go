// Batch Adds n but always starts three workers: fewer than three Adds make
// the counter negative, more make Wait block for ever.
package batch

import "sync"

func Batch(n int) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < 3; i++ {
		go func() {
			wg.Done() // want: negative-waitgroup predicted
		}()
	}
	wg.Wait() // want: global-deadlock predicted
}
