// A batcher runs its feeder and its flusher as tracked tasks: a counter
// under a mutex, with a Cond that Close waits on until the count is zero.
// The feeder checks quit without blocking and otherwise sends the next
// item; the flusher collects items until quit and then flushes the batch.
// When Close closes quit after the feeder has checked it but before its
// send, and the flusher's select takes quit, nobody receives: the feeder
// blocks in its send forever, the count never reaches zero, and Close
// waits forever (deadlock).
//
// A plain run hands all three items over long before Close (the test lets
// the batcher run for 20 ms first). Only a sleep orders the flusher's last
// receive before the close of quit: the other schedule, where the
// flusher's select takes quit first, leaves the feeder's send with no
// partner (and Close's Wait with no Broadcast to come).
// Expected: goroutine-leak, predicted (and confirmed by replay), at the
// feeder's send.
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
		default:
			b.items <- it // want: goroutine-leak predicted chan-send
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
