// The twin of gate_broadcast_before_wait: a runner waits only while the
// gate is closed, so a Broadcast that came before its Wait is not needed.
// `gordian fuzz` finds no bug.
package gate_waits_while_closed

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
	for !g.open {
		g.cond.Wait()
	}
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
		<-finished
	}
}
