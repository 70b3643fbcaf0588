// The twin of cache_notifies_under_lock: Set releases the lock before it
// notifies the listener, so a listener waiting for the lock in snapshot
// gets it, returns to its select and takes the notice. `gordian fuzz`
// finds no bug.
package cache_notifies_after_unlock

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
	c.data[k] = v
	c.mu.Unlock()
	c.updates <- k
}

func (c *Cache) snapshot() int {
	c.mu.Lock()
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
