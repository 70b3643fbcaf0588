// A dispatcher queue wakes its consumer with a sync.Cond. The consumer checks
// the stop flag only after it has taken an item, and Stop sets the flag without
// waking anyone. Once the queue is drained, the consumer waits on the condition
// forever and outlives the test.
//
// Expected: goroutine-leak, occurred, cond, at the consumer's cond.Wait. The
// consumer has handled the only item before the test calls Stop; the stop
// flag is never looked at while the queue is empty.
package dispatcher

import (
	"sync"
	"testing"
)

type Dispatcher struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []string
	stopped bool
	handled chan string
}

func New() *Dispatcher {
	d := &Dispatcher{handled: make(chan string, 8)}
	d.cond = sync.NewCond(&d.mu)
	return d
}

func (d *Dispatcher) Push(item string) {
	d.mu.Lock()
	d.items = append(d.items, item)
	d.mu.Unlock()
	d.cond.Signal()
}

func (d *Dispatcher) Stop() {
	d.mu.Lock()
	d.stopped = true
	d.mu.Unlock()
}

func (d *Dispatcher) consume() {
	for {
		d.mu.Lock()
		for len(d.items) == 0 {
			d.cond.Wait() // want: goroutine-leak occurred cond
		}
		item := d.items[0]
		d.items = d.items[1:]
		stop := d.stopped
		d.mu.Unlock()
		if stop {
			return
		}
		d.handled <- "handled " + item
	}
}

func TestDispatch(t *testing.T) {
	d := New()
	go d.consume()
	d.Push("email:42")
	if got := <-d.handled; got != "handled email:42" {
		t.Fatalf("got %q", got)
	}
	d.Stop()
}
