// A goroutine spins (yielding) until a flag that another goroutine sets
// after a channel handshake. A schedule that holds the setter makes the
// spinner spin: the hold must end (when its time is up, or the test's)
// and the run with it, within the campaign's bound.
// Expected: no findings.
package spin_until_flag

import (
	"runtime"
	"sync/atomic"
	"testing"
)

func TestSpinUntilSet(t *testing.T) {
	var ready atomic.Bool
	hello := make(chan struct{})
	go func() {
		<-hello
		ready.Store(true)
	}()
	hello <- struct{}{}
	for !ready.Load() {
		runtime.Gosched()
	}
}
