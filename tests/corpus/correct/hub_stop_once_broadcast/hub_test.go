// A hub whose Stop may be called by several goroutines at once: the close of
// quit is guarded by a sync.Once, so it happens exactly once in every order.
// quit is a broadcast: three listeners each wait for it in their own way (a
// receive statement, a select with a ticket channel, and a receive that keeps
// the struct{} value), and every one of them is released by the single
// close. quit is never sent on, so a receive from it can only ever see it
// closed, which is what each listener waits for. Stop also waits for the
// listeners to leave. Expected: no findings, no recv-on-closed warning.
package hub

import (
	"sync"
	"testing"
)

type Hub struct {
	quit      chan struct{}
	once      sync.Once
	listeners sync.WaitGroup
}

func NewHub() *Hub { return &Hub{quit: make(chan struct{})} }

func (h *Hub) Stop() {
	h.once.Do(func() { close(h.quit) })
	h.listeners.Wait()
}

func TestConcurrentStopReleasesEveryone(t *testing.T) {
	h := NewHub()
	tickets := make(chan int)
	var seen [3]bool
	h.listeners.Add(3)
	go func() {
		defer h.listeners.Done()
		<-h.quit // nowant: recv-on-closed
		seen[0] = true
	}()
	go func() {
		defer h.listeners.Done()
		for {
			select { // nowant: recv-on-closed
			case <-tickets:
			case <-h.quit:
				seen[1] = true
				return
			}
		}
	}()
	go func() {
		defer h.listeners.Done()
		sig := <-h.quit // nowant: recv-on-closed
		seen[2] = sig == struct{}{}
	}()
	tickets <- 1
	var stoppers sync.WaitGroup
	for i := 0; i < 3; i++ {
		stoppers.Add(1)
		go func() {
			defer stoppers.Done()
			h.Stop()
		}()
	}
	stoppers.Wait()
	if seen != [3]bool{true, true, true} {
		t.Fatalf("listeners released: %v", seen)
	}
}
