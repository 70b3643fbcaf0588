// Poll starts a poller that refreshes on every tick and waits for it, but
// nothing ever stops the poller: it runs forever and Poll's Wait never
// returns. No state is stuck (the ticker keeps the poller going), so only
// the liveness search sees it.
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
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range t.C {
			refresh()
		}
	}()
	wg.Wait() // want: partial-deadlock predicted
}
