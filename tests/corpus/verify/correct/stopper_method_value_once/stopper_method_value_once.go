// The stopper's twin: stop closes quit through a sync.Once, so the method
// value may run in a goroutine and again in the caller.
package stopper

import "sync"

type Ticker struct {
	once sync.Once
	quit chan struct{}
}

func (t *Ticker) stop() {
	t.once.Do(func() { close(t.quit) })
}

func Run() {
	t := &Ticker{quit: make(chan struct{})}
	f := t.stop
	done := make(chan bool)
	go func() {
		f()
		done <- true
	}()
	f()
	<-done
}
