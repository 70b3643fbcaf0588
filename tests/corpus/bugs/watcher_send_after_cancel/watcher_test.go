// A watcher library starts its forwarding goroutine through a callback the
// caller gives it (the caller's own goroutine pool). The forwarder loops
// on a select of the context and the source; each event it takes it then
// sends to the consumer with a plain send. The consumer loops on a select
// of the context and the events. When the context is cancelled after the
// forwarder took an event but before the consumer took it, the consumer
// leaves on the cancel and the forwarder blocks in its send forever
// (goroutine leak).
//
// A plain run hands the event over long before the test cancels (it
// settles for 10 ms first). Only a sleep orders the consumer's receive
// before the cancel: the other schedule, where the consumer's select takes
// the cancel first, leaves the forwarder's send with no partner.
// Expected: goroutine-leak, predicted (and confirmed by replay), at the
// forwarder's send.
package watcher_send_after_cancel

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Watcher struct {
	events chan string
}

// Start forwards source to w.events until ctx ends; spawn starts the
// forwarder (the caller decides how goroutines are started).
func (w *Watcher) Start(ctx context.Context, source <-chan string, spawn func(func())) {
	spawn(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-source:
				w.events <- ev // want: goroutine-leak predicted chan-send
			}
		}
	})
}

func consume(ctx context.Context, events <-chan string, seen *int) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-events:
			*seen++
		}
	}
}

func TestWatcherForwards(t *testing.T) {
	var pool sync.WaitGroup
	spawn := func(f func()) {
		pool.Add(1)
		go func() {
			defer pool.Done()
			f()
		}()
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{events: make(chan string)}
	source := make(chan string, 1)
	source <- "created"
	w.Start(ctx, source, spawn)
	seen := 0
	done := make(chan struct{})
	go func() {
		consume(ctx, w.events, &seen)
		close(done)
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	<-done
}
