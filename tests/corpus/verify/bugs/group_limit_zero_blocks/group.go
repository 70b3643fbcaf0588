// A Group (errgroup's shape) limits its running tasks with a channel only
// SetLimit makes. Crawl always sets the limit to workers: with no workers
// the channel is unbuffered and the first Go blocks for ever on its token,
// with nothing to receive it.
package group

import "sync"

type token struct{}

type Group struct {
	wg  sync.WaitGroup
	sem chan token
}

func (g *Group) done() {
	if g.sem != nil {
		<-g.sem
	}
	g.wg.Done()
}

func (g *Group) SetLimit(n int) {
	g.sem = make(chan token, n)
}

func (g *Group) Go(f func()) {
	if g.sem != nil {
		g.sem <- token{} // want: global-deadlock predicted
	}
	g.wg.Add(1)
	go func() {
		defer g.done()
		f()
	}()
}

func (g *Group) Wait() {
	g.wg.Wait()
}

func Crawl(workers int) {
	var g Group
	g.SetLimit(workers)
	for i := 0; i < 3; i++ {
		g.Go(func() {})
	}
	g.Wait()
}
