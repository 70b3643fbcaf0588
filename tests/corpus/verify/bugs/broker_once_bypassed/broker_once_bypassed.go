// Broker closes its done channel through a sync.Once in Close, but its
// failure path closes the channel directly: when both run, done is closed
// twice (the Once does not know about the direct close).
package broker

import "sync"

type Broker struct {
	once sync.Once
	done chan struct{}
}

func (b *Broker) Close() {
	b.once.Do(func() { close(b.done) }) // want: close-of-closed predicted
}

func (b *Broker) fail() {
	close(b.done) // want: close-of-closed predicted
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
