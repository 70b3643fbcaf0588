// The shape of fuzz/bugs/notify_len_check done right: a notifier sends
// without blocking (a select with a default) instead of checking len(ch)
// first, so whichever order the two notifiers run in, at most one
// notification is pending and no send blocks.
package notify_nonblocking_send

import (
	"sync"
	"testing"
	"time"
)

func TestNotifyNeverBlocks(t *testing.T) {
	pending := make(chan struct{}, 1)
	var wg sync.WaitGroup
	notify := func() {
		defer wg.Done()
		select {
		case pending <- struct{}{}:
		default: // one is pending already
		}
	}
	wg.Add(2)
	go notify()
	go func() {
		time.Sleep(10 * time.Millisecond)
		notify()
	}()
	wg.Wait()
	<-pending
}
