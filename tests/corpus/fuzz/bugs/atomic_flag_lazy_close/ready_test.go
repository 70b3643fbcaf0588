// Two callers may be first to find a resource ready; the first one marks
// it and closes `ready` to release the waiters. Each checks an atomic flag,
// and only after closing sets it: check-then-act on a flag. When both check
// before either sets it, both close: close of closed channel.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the second caller comes 10 ms after the first, whose check, close and set
// take nanoseconds, so it always finds the flag set. The flag is an atomic
// the recorder does not see: the trace holds one close, and no reordering
// of recorded operations changes what the second caller loads. What finds
// it: a delay point (the delay strategy) that holds the first caller at
// its close until the second has checked the flag; both then close.
package atomic_flag_lazy_close

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFirstCallerReleasesWaiters(t *testing.T) {
	var released atomic.Bool
	ready := make(chan struct{})
	var wg sync.WaitGroup
	release := func() {
		defer wg.Done()
		if !released.Load() {
			close(ready) // want: close-of-closed occurred
			released.Store(true)
		}
	}
	wg.Add(2)
	go release()
	go func() {
		time.Sleep(10 * time.Millisecond)
		release()
	}()
	<-ready
	wg.Wait()
}
