// A pub/sub hub delivers each message to a snapshot of its subscribers taken
// under the lock, then sends outside the lock. Between the snapshot and the
// delivery it calls the quota hook; the test's hook unsubscribes a subscriber
// that is over its quota, which closes that subscriber's channel. Delivery
// then sends to the closed channel.
//
// Expected: send-on-closed, occurred, at the delivery send in Publish. The
// test is single-threaded up to the send, so it panics in every run.
package hub

import (
	"sync"
	"testing"
)

type Hub struct {
	mu      sync.Mutex
	subs    map[int]chan string
	next    int
	onQuota func(id int) // called for every subscriber before delivery
}

func (h *Hub) Subscribe() (int, <-chan string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	ch := make(chan string, 8)
	h.subs[h.next] = ch
	return h.next, ch
}

func (h *Hub) Unsubscribe(id int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.subs[id])
	delete(h.subs, id)
}

func (h *Hub) Publish(msg string) {
	h.mu.Lock()
	snapshot := make(map[int]chan string, len(h.subs))
	for id, ch := range h.subs {
		snapshot[id] = ch
	}
	h.mu.Unlock()
	for id, ch := range snapshot {
		if h.onQuota != nil {
			h.onQuota(id)
		}
		ch <- msg // want: send-on-closed occurred
	}
}

func TestQuotaDropsNoisySubscriber(t *testing.T) {
	h := &Hub{subs: map[int]chan string{}}
	received := map[int]int{}
	noisy, _ := h.Subscribe()
	h.onQuota = func(id int) {
		received[id]++
		if id == noisy && received[id] > 1 {
			h.Unsubscribe(id)
		}
	}
	h.Publish("hello")
	h.Publish("again")
	if len(h.subs) != 0 {
		t.Fatalf("noisy subscriber still registered")
	}
}
