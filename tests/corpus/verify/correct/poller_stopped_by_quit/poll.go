// Poll's twin: the poller also selects on a quit channel, which Poll
// closes before it waits.
package poll

import (
	"sync"
	"time"
)

var refreshes int

func refresh() { refreshes++ }

func Poll() {
	var wg sync.WaitGroup
	t := time.NewTicker(time.Second)
	defer t.Stop()
	quit := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-t.C:
				refresh()
			case <-quit:
				return
			}
		}
	}()
	time.Sleep(3 * time.Second)
	close(quit)
	wg.Wait()
}
