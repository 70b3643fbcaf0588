// The shape of fuzz/bugs/publish_checks_closed_flag done right: a
// publisher checks the flag and sends under the read lock, and Close sets
// it and closes under the write lock, so a publisher that Close's 10 ms
// wait gave up on either sends before the close or finds the flag set,
// however slow it is.
package publish_under_read_lock

import (
	"sync"
	"testing"
	"time"
)

type bus struct {
	mu       sync.RWMutex
	closed   bool
	inFlight sync.WaitGroup
	ch       chan string
}

// PublishAsync publishes m from a goroutine of its own, counted in
// inFlight before it starts.
func (b *bus) PublishAsync(m string) {
	b.inFlight.Add(1)
	go func() {
		defer b.inFlight.Done()
		b.mu.RLock()
		defer b.mu.RUnlock()
		if b.closed {
			return
		}
		b.ch <- m
	}()
}

func (b *bus) Close() {
	idle := make(chan struct{})
	go func() {
		b.inFlight.Wait()
		close(idle)
	}()
	select {
	case <-idle:
	case <-time.After(10 * time.Millisecond): // a stuck publisher must not stop Close
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	close(b.ch)
}

func TestPublishChecksClosed(t *testing.T) {
	b := &bus{ch: make(chan string, 4)}
	b.PublishAsync("hello")
	time.Sleep(20 * time.Millisecond)
	b.Close()
	for range b.ch {
	}
}
