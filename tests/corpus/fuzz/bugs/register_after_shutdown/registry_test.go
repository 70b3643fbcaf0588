// Workers register a stop channel in a registry and wait on it; shutdown
// closes every registered channel and waits for the workers. A worker that
// registers after shutdown has closed the registered channels is never
// stopped: it waits on its channel forever, and shutdown waits for it
// forever: a global deadlock. The registry has no "shut down" state for a
// late worker to find.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// shutdown comes 50 ms after the worker started, so the worker has always
// registered. Whether shutdown closes the worker's channel depends on what
// the map holds when shutdown reads it: the recorded trace holds the close
// after the registration, ordered only by the registry's mutex, and the
// close is there, so no reordering of the recorded operations leaves the
// worker without it. What finds it: the other order of the two Locks (the
// prediction-guided strategy's lock orders): shutdown first, on an empty
// registry.
package register_after_shutdown

import (
	"sync"
	"testing"
	"time"
)

type registry struct {
	mu    sync.Mutex
	stops map[int]chan struct{}
}

func (r *registry) Register(id int) <-chan struct{} {
	stop := make(chan struct{})
	r.mu.Lock()
	r.stops[id] = stop
	r.mu.Unlock()
	return stop
}

func (r *registry) Shutdown() {
	r.mu.Lock()
	for id, stop := range r.stops {
		close(stop)
		delete(r.stops, id)
	}
	r.mu.Unlock()
}

func TestShutdownStopsWorkers(t *testing.T) {
	r := &registry{stops: map[int]chan struct{}{}}
	var workers sync.WaitGroup
	workers.Add(1)
	go func() {
		defer workers.Done()
		stop := r.Register(1)
		<-stop // want: global-deadlock occurred
	}()
	time.Sleep(50 * time.Millisecond)
	r.Shutdown()
	workers.Wait() // want: global-deadlock occurred
}
