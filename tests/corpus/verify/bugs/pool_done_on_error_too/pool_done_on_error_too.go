// Process adds one to the WaitGroup per item, but a worker whose item
// fails calls Done on its error path and then again at its end:
// with a failing item the counter goes below zero (at the second Done of
// that worker, or, from two items on, at the error-path Done of the next).
package pool

import "sync"

func handle(x int) error {
	if x < 0 {
		return errNegative
	}
	return nil
}

type negErr struct{}

func (negErr) Error() string { return "negative" }

var errNegative error = negErr{}

func Process(items []int) {
	var wg sync.WaitGroup
	wg.Add(len(items))
	for _, it := range items {
		go func(x int) {
			if err := handle(x); err != nil {
				wg.Done() // want: negative-waitgroup predicted
			}
			wg.Done() // want: negative-waitgroup predicted
		}(it)
	}
	wg.Wait()
}
