// A debouncer runs an action once no new call has arrived for a quiet period.
// Each call stops the previous timer and starts a new one; a goroutine per
// call waits on its timer's channel and then runs the action. Stopping a
// timer does not close or fire its channel, so the goroutine of a superseded
// call waits forever.
//
// Expected: goroutine-leak, occurred, chan-recv, at the receive from the timer
// channel: the second call comes right after the first (well within the 100 ms
// quiet period) and stops the first call's timer, which never fires. The test
// waits for the second call's action. Only the first call's goroutine leaks.
package debounce

import (
	"sync"
	"testing"
	"time"
)

type Debouncer struct {
	mu    sync.Mutex
	quiet time.Duration
	timer *time.Timer
}

func (d *Debouncer) Call(action func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	t := time.NewTimer(d.quiet)
	d.timer = t
	go func() {
		<-t.C // want: goroutine-leak occurred chan-recv
		action()
	}()
}

func TestDebounceSavesLastDraft(t *testing.T) {
	d := &Debouncer{quiet: 100 * time.Millisecond}
	saved := make(chan string, 2)
	d.Call(func() { saved <- "draft 1" })
	d.Call(func() { saved <- "draft 2" })
	if got := <-saved; got != "draft 2" {
		t.Fatalf("saved %q", got)
	}
}
