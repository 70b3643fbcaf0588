// A Broker sends events on a channel Close closes. Close sets closed and
// closes the channel under the mutex; Publish checks closed under the same
// mutex before it sends, so it never sends on the closed channel, and a
// second Close returns early instead of closing again.
package broker

import (
	"errors"
	"sync"
)

var ErrClosed = errors.New("broker closed")

type Broker struct {
	mu     sync.Mutex
	events chan int
	closed bool
}

func NewBroker() *Broker {
	return &Broker{events: make(chan int, 4)}
}

func (b *Broker) Publish(v int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	b.events <- v
	return nil
}

func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	close(b.events)
}

func Run() {
	b := NewBroker()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 2; i++ {
			_ = b.Publish(i)
		}
	}()
	b.Close()
	b.Close()
	<-done
}
