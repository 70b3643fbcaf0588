// The shape of fuzz/bugs/register_after_shutdown done right: the registry
// remembers that it was shut down, and Register after that hands out a
// channel that is already closed, so a late worker stops at once,
// whichever of the two Locks comes first.
package register_checks_shutdown

import (
	"sync"
	"testing"
	"time"
)

type registry struct {
	mu       sync.Mutex
	shutDown bool
	stops    map[int]chan struct{}
}

func (r *registry) Register(id int) <-chan struct{} {
	stop := make(chan struct{})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shutDown {
		close(stop)
		return stop
	}
	r.stops[id] = stop
	return stop
}

func (r *registry) Shutdown() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shutDown = true
	for id, stop := range r.stops {
		close(stop)
		delete(r.stops, id)
	}
}

func TestShutdownStopsWorkers(t *testing.T) {
	r := &registry{stops: map[int]chan struct{}{}}
	var workers sync.WaitGroup
	workers.Add(1)
	go func() {
		defer workers.Done()
		stop := r.Register(1)
		<-stop
	}()
	time.Sleep(50 * time.Millisecond)
	r.Shutdown()
	workers.Wait()
}
