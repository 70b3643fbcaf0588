// A pub/sub hub where delivery and unsubscription can never cross: Publish
// sends to each subscriber's buffered channel while holding the hub's lock,
// with a non-blocking send (a full subscriber misses the message), and
// Unsubscribe closes the channel under the same lock after removing it. So no
// send can reach a closed channel, and no send blocks while the lock is held.
// Expected: no findings.
package hub

import (
	"sync"
	"testing"
)

type Hub struct {
	mu   sync.Mutex
	subs map[int]chan string
	next int
}

func (h *Hub) Subscribe() (int, <-chan string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	ch := make(chan string, 4)
	h.subs[h.next] = ch
	return h.next, ch
}

func (h *Hub) Unsubscribe(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ch, ok := h.subs[id]; ok {
		delete(h.subs, id)
		close(ch)
	}
}

func (h *Hub) Publish(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, ch := range h.subs {
		select {
		case ch <- msg:
		default: // subscriber too slow: drop
		}
	}
}

func TestPublishWhileUnsubscribing(t *testing.T) {
	h := &Hub{subs: map[int]chan string{}}
	id, ch := h.Subscribe()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			h.Publish("tick")
		}
	}()
	go func() {
		defer wg.Done()
		h.Unsubscribe(id)
		h.Unsubscribe(id)
	}()
	wg.Wait()
	n := 0
	for range ch {
		n++
	}
	if n > 4 {
		t.Fatalf("got %d messages", n)
	}
}
