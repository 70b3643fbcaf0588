// Start's twin: one job per worker, then close, then wait.
package pool

import "sync"

type Pool struct {
	jobs chan int
	wg   sync.WaitGroup
}

func Start(n int) {
	p := &Pool{jobs: make(chan int)}
	for i := 0; i < n; i++ {
		p.wg.Add(1)
		go p.work()
	}
	for i := 0; i < n; i++ {
		p.jobs <- i
	}
	close(p.jobs)
	p.wg.Wait()
}

func (p *Pool) work() {
	defer p.wg.Done()
	for j := range p.jobs {
		_ = j
	}
}
