// A cache tells a listener about each Set on an unbuffered channel, and
// sends while it still holds its lock. The listener also takes a snapshot
// of the cache (which needs the lock) on every tick of a ticker. When a
// tick wins the listener's select while Set holds the lock and has not yet
// sent, the listener waits for the lock in snapshot and Set waits for the
// listener in its send: neither moves again (a deadlock of a channel and a
// mutex).
//
// It takes three orderings at once: the tick before the notice, Set's Lock
// before the snapshot's Lock, and the send after the listener has left its
// select.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the test sets once, long before the first tick, so the recorded run
// never takes the snapshot and its trace has no second Lock to reorder.
// What finds it: the select strategy's preference for the ticker's case
// (the listener takes the tick while Set holds the lock, as a listener
// that comes to its select late can), then the lock order of that run.
package cache_notifies_under_lock

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Cache struct {
	mu      sync.Mutex
	data    map[string]string
	updates chan string
}

func (c *Cache) Set(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.data[k] = v
	c.updates <- k // want: mixed-deadlock occurred
}

func (c *Cache) snapshot() int {
	c.mu.Lock() // want: mixed-deadlock occurred
	defer c.mu.Unlock()
	return len(c.data)
}

func (c *Cache) listen(ctx context.Context, every time.Duration) (notices, sizes int) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-c.updates:
			notices++
		case <-tick.C:
			sizes += c.snapshot()
		case <-ctx.Done():
			return
		}
	}
}

func TestSetNotifiesListener(t *testing.T) {
	c := &Cache{data: map[string]string{}, updates: make(chan string)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		c.listen(ctx, 20*time.Millisecond)
		close(done)
	}()
	c.Set("a", "1")
	cancel()
	<-done
}
