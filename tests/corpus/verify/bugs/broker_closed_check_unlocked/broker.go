// A Broker sends events on a channel Close closes. Publish checks closed
// before it takes the mutex: Close can set closed and close the channel
// between the check and the send, which then sends on a closed channel.
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
	if b.closed {
		return ErrClosed
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events <- v // want: send-on-closed predicted
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
