// Start feeds one job to n workers that range over jobs, never closes it,
// and waits for them: with no worker the send blocks, with workers they
// wait for more jobs and Start waits for them.
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
	p.jobs <- 1 // want: global-deadlock predicted
	p.wg.Wait() // want: global-deadlock predicted
}

func (p *Pool) work() {
	defer p.wg.Done()
	for j := range p.jobs { // want: global-deadlock predicted
		_ = j
	}
}
