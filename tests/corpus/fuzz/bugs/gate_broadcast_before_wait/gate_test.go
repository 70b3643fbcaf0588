// A start gate: each runner registers on a channel, then waits on a Cond
// until the gate opens. The starter receives every registration, opens
// the gate and broadcasts. A runner waits without checking whether the
// gate is already open: when the Broadcast comes between a runner's
// registration and its Wait, that runner misses it and waits forever, and
// the starter waits forever for its finish (deadlock).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the starter takes 5 ms to set up after the registrations, by which time
// both runners wait; in the trace each Wait released the lock before the
// starter took it, and a Broadcast that wakes its waiters leaves no lost
// wakeup to predict. What finds it: the lock strategy (the starter's Lock
// before a runner's), or a delay point at a runner's Lock.
package gate_broadcast_before_wait

import (
	"sync"
	"testing"
	"time"
)

type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func runner(g *Gate, registered chan<- int, finished chan<- int, id int) {
	registered <- id
	g.mu.Lock()
	g.cond.Wait() // want: global-deadlock occurred
	g.mu.Unlock()
	finished <- id
}

func TestRunnersStartTogether(t *testing.T) {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	registered, finished := make(chan int), make(chan int)
	for id := 1; id <= 2; id++ {
		go runner(g, registered, finished, id)
	}
	<-registered
	<-registered
	time.Sleep(5 * time.Millisecond) // set up the race track
	g.mu.Lock()
	g.open = true
	g.cond.Broadcast()
	g.mu.Unlock()
	for range 2 {
		<-finished // want: global-deadlock occurred
	}
}
