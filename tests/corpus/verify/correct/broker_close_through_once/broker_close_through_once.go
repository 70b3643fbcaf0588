// Broker's twin: the failure path closes done through the same Once as
// Close, so the channel is closed once whichever runs first.
package broker

import "sync"

type Broker struct {
	once sync.Once
	done chan struct{}
}

func (b *Broker) Close() {
	b.once.Do(func() { close(b.done) })
}

func (b *Broker) fail() {
	b.Close()
}

func Serve(bad bool) {
	b := &Broker{done: make(chan struct{})}
	go func() {
		if bad {
			b.fail()
		}
	}()
	b.Close()
}
