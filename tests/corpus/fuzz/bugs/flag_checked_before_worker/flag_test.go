// A supervisor checks, under a lock, whether its worker has started; if
// not, it assumes the worker never will and closes the worker's done
// channel itself. The worker, which had only not been scheduled yet, sets
// its flag and closes done as well: close of closed channel.
//
// Why one run does not show it and `gordian test` does not predict it: the
// supervisor sleeps 50 ms before it checks, so the worker has always set
// the flag; the supervisor's close is on the branch `!started`, which the
// recorded run never took, so the trace holds a single close and nothing
// to pair it with. The only thing that orders the two critical sections is
// the lock itself. What finds it: the other order of the two Locks (the
// supervisor's first) as a schedule prefix; the flag is then false.
package flag_checked_before_worker

import (
	"sync"
	"testing"
	"time"
)

func TestFlagCheckedBeforeWorker(t *testing.T) {
	var mu sync.Mutex
	started := false
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		started = true
		mu.Unlock()
		close(done) // want: close-of-closed occurred
	}()
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	if !started {
		close(done) // the worker is taken for dead
		mu.Unlock()
		wg.Wait()
		return
	}
	mu.Unlock()
	<-done
	wg.Wait()
}
