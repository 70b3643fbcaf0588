// An event bus delivers each event on an unbuffered subscriber channel while
// holding its mutex. The subscriber, after handling an event, asks the bus for
// its subscriber count, which needs the same mutex. The test publishes two
// events 50 ms apart.
//
// Expected: mixed-deadlock, predicted, at the send in Publish and the Lock in
// Count. In the normal run the subscriber's Count is long over when the second
// Publish takes the lock. Only a sleep separates them: if the second Publish
// takes the lock first, it blocks sending (the subscriber is not receiving)
// while the subscriber blocks in Count waiting for the lock.
package bus

import (
	"sync"
	"testing"
	"time"
)

type Bus struct {
	mu   sync.Mutex
	subs []chan string
}

func (b *Bus) Subscribe() <-chan string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan string)
	b.subs = append(b.subs, ch)
	return ch
}

func (b *Bus) Publish(ev string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		ch <- ev // want: mixed-deadlock predicted
	}
}

func (b *Bus) Count() int {
	b.mu.Lock() // want: mixed-deadlock predicted
	defer b.mu.Unlock()
	return len(b.subs)
}

func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, ch := range b.subs {
		close(ch)
	}
}

func TestPublish(t *testing.T) {
	b := &Bus{}
	events := b.Subscribe()
	done := make(chan int)
	go func() {
		handled := 0
		for range events {
			handled++
			_ = b.Count() // "how many listeners saw this?"
		}
		done <- handled
	}()
	b.Publish("user.created")
	time.Sleep(50 * time.Millisecond)
	b.Publish("user.updated")
	b.Close()
	if n := <-done; n != 2 {
		t.Fatalf("handled %d events", n)
	}
}
