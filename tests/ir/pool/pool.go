// Package pool is the program tests/ir/ir_dump_test.cc runs `gordian ir
// dump` on: a worker pool with a buffered channel sized by its input, a
// WaitGroup, a mutex in a struct and a result channel closed by a closure.
package pool

import "sync"

type Totals struct {
	mu  sync.Mutex
	sum int
}

func (t *Totals) add(v int) {
	t.mu.Lock()
	t.sum += v
	t.mu.Unlock()
}

func Sum(jobs []int, workers int) int {
	work := make(chan int, len(jobs))
	var wg sync.WaitGroup
	var t Totals
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range work {
				t.add(v)
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
	return t.sum
}
