// The zero-limit group's twin: Crawl sets a limit only for a positive
// number of workers. Without one the limit channel stays nil, and Go and
// done skip it; with one, each task's token is released by its done.
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
		g.sem <- token{}
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
	if workers > 0 {
		g.SetLimit(workers)
	}
	for i := 0; i < 3; i++ {
		g.Go(func() {})
	}
	g.Wait()
}
