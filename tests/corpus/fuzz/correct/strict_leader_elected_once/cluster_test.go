// The twin of fuzz/bugs/strict_leader_handover: a primary that takes the
// lead over from a replica in strict mode announces the handover on its
// own channel, and `ready` is closed once, by the first member to join.
// Every order of the Once's calls and of the joins is correct.
package strict_leader_elected_once

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type cluster struct {
	modeOnce sync.Once
	strict   atomic.Bool
	mu       sync.Mutex
	leader   string
	ready    chan struct{}
	handed   chan struct{}
	log      chan string
}

func (c *cluster) setMode(strict bool) {
	c.modeOnce.Do(func() { c.strict.Store(strict) })
}

func (c *cluster) join(name string) {
	c.mu.Lock()
	first := c.leader == ""
	handover := !first && c.strict.Load() && name == "primary"
	if first || handover {
		c.leader = name
	}
	c.mu.Unlock()
	if first {
		close(c.ready)
		return
	}
	if handover {
		close(c.handed)
	}
}

func TestLeaderElectedOnce(t *testing.T) {
	c := &cluster{ready: make(chan struct{}), handed: make(chan struct{}), log: make(chan string)}
	replayed := make(chan int)
	go func() {
		n := 0
		for range c.log {
			n++
		}
		replayed <- n
	}()
	for i := 0; i < 40; i++ {
		c.log <- "entry"
	}
	close(c.log)
	if n := <-replayed; n != 40 {
		t.Fatalf("replayed %d entries", n)
	}

	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); c.setMode(false) }()
	go func() { defer wg.Done(); time.Sleep(5 * time.Millisecond); c.setMode(true) }()
	go func() { defer wg.Done(); time.Sleep(10 * time.Millisecond); c.join("primary") }()
	go func() { defer wg.Done(); time.Sleep(30 * time.Millisecond); c.join("replica") }()
	wg.Wait()
	<-c.ready
}
