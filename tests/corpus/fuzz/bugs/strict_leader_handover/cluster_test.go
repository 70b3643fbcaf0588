// A cluster node learns its mode once, from whichever of two sources
// answers first (the local default or the operator's strict setting, a
// sync.Once), and its members elect a leader: the first to join under the
// lock leads and closes `ready`. In strict mode only the primary may lead,
// so a primary that joins after a replica took the lead hands the lead
// over, and announces it by closing `ready` again: close of a closed
// channel, but only when both orderings go the other way at once (the
// operator's setting wins the Once, and the replica joins before the
// primary).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the default answers at once and the operator 5 ms later; the primary
// joins 10 ms in and the replica 30 ms in, after 40 warm-up messages. The
// close the bug needs is on a branch the recorded run never took (it
// depends on the atomic mode and on the leader's name), so no prediction
// reorders it. Each ordering alone is harmless: strict mode with the
// primary leading, or the replica leading in default mode. One reversal
// (the Once's calls, or the two joins) followed by a free run puts the
// other ordering back as the clock has it, and the same reversal proposed
// again from that run has a key already tried. What finds it: the
// reversal of the Once's two calls, and in the run that followed it (new
// coverage) the two joins reversed too (the conflicting-pairs strategy,
// depth 2). A delay point finds it only when two of the run's points are
// the two right ones.
package strict_leader_handover

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
		close(c.ready) // want: close-of-closed occurred
	}
}

func TestLeaderElectedOnce(t *testing.T) {
	c := &cluster{ready: make(chan struct{}), log: make(chan string)}
	// Warm-up: the node replays its log before it takes part.
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
