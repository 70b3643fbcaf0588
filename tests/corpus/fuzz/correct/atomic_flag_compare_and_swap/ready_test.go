// The shape of fuzz/bugs/atomic_flag_lazy_close done right: the check and
// the set are one step (CompareAndSwap), so exactly one caller closes
// `ready`, however slow either of them is.
package atomic_flag_compare_and_swap

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
		if released.CompareAndSwap(false, true) {
			close(ready)
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
