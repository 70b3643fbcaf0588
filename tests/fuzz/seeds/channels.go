// Channels, goroutines, select and sync: the constructs Gordian cares most about.
package pipeline

import (
	"context"
	"sync"
	"time"
)

type result struct {
	id  int
	err error
}

func worker(ctx context.Context, in <-chan int, out chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case v, ok := <-in:
			if !ok {
				return
			}
			out <- result{id: v}
		case <-time.After(10 * time.Millisecond):
		default:
		}
	}
}

func Run(n int) []result {
	in := make(chan int, n)
	out := make(chan result)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go worker(ctx, in, out, &wg)
	}
	go func() { wg.Wait(); close(out) }()
	var res []result
	for r := range out {
		mu.Lock()
		res = append(res, r)
		mu.Unlock()
	}
	var ch chan chan<- <-chan int
	_ = ch
	return res
}
