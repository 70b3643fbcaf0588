// The twin of watcher_send_after_cancel: the forwarder's send is a case
// of a select with the context, so a cancel releases a forwarder that is
// waiting to hand an event over.
// Expected: no findings.
package watcher_send_watches_cancel

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
				select {
				case w.events <- ev:
				case <-ctx.Done():
					return
				}
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
