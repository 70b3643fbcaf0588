// The twin of bugs/batcher_close_strands_feeder: the feeder's send is a
// select on the send and quit, so a feeder that checked quit before Close
// closed it and then finds the flusher gone leaves on quit; the task count
// reaches zero and Close returns. Expected: no findings.
package batcher

import (
	"sync"
	"testing"
	"time"
)

type Batcher struct {
	mu      sync.Mutex
	idle    *sync.Cond
	running int
	quit    chan struct{}
	items   chan string
	flushed []string
}

func (b *Batcher) track(task func()) {
	b.mu.Lock()
	b.running++
	b.mu.Unlock()
	go func() {
		task()
		b.mu.Lock()
		if b.running--; b.running == 0 {
			b.idle.Broadcast()
		}
		b.mu.Unlock()
	}()
}

func (b *Batcher) feed(queued []string) {
	for _, it := range queued {
		select {
		case <-b.quit:
			return
		case b.items <- it:
		}
	}
}

func (b *Batcher) flusher() {
	var batch []string
	for {
		select {
		case <-b.quit:
			b.mu.Lock()
			b.flushed = append(b.flushed, batch...)
			b.mu.Unlock()
			return
		case it := <-b.items:
			batch = append(batch, it)
		}
	}
}

func (b *Batcher) Close() {
	close(b.quit)
	b.mu.Lock()
	for b.running > 0 {
		b.idle.Wait()
	}
	b.mu.Unlock()
}

func TestBatcherFlushesOnClose(t *testing.T) {
	b := &Batcher{quit: make(chan struct{}), items: make(chan string)}
	b.idle = sync.NewCond(&b.mu)
	b.track(func() { b.feed([]string{"a", "b", "c"}) })
	b.track(b.flusher)
	time.Sleep(20 * time.Millisecond)
	b.Close()
	t.Logf("flushed %v", b.flushed)
}
