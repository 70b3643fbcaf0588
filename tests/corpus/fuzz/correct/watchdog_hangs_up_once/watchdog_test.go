// The shape of fuzz/bugs/watchdog_hangs_up_twice done right: the handler
// and the watchdog hang up through one sync.Once, so the connection is
// closed once whichever of them comes first and whichever case the
// watchdog's select takes.
package watchdog_hangs_up_once

import (
	"sync"
	"testing"
	"time"
)

func TestWatchdogHangsUpSlowHandler(t *testing.T) {
	conn := make(chan struct{}) // closed: the connection is hung up
	var hangUp sync.Once
	reply := make(chan string, 1)
	exited := make(chan struct{})
	go func() { // the handler
		defer close(exited)
		reply <- "ok"
		hangUp.Do(func() { close(conn) })
	}()
	select {
	case r := <-reply:
		if r != "ok" {
			t.Fatalf("reply %q", r)
		}
	case <-time.After(100 * time.Millisecond):
		<-exited
		hangUp.Do(func() { close(conn) })
	}
	<-conn
}
