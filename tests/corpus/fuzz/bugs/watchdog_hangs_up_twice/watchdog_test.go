// A watchdog gives a request handler 100 ms to reply; if no reply has come
// by then it takes the handler for hung, waits for the handler to exit and
// hangs up its connection (closes `conn`). But the handler hangs up its
// connection itself when it has replied: when the timeout wins, the
// watchdog's close is the second and panics (close of closed channel),
// although the handler was only slow.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the handler replies at once, so the watchdog's select always takes the
// reply before its timer. The watchdog's close is on the timer's branch,
// which the recorded run never took, so the trace holds a single close of
// `conn`. What finds it: the timer case taken although the reply is ready
// (the select strategy's preference; the prediction-guided strategy forces
// a timer case too).
package watchdog_hangs_up_twice

import (
	"testing"
	"time"
)

func TestWatchdogHangsUpSlowHandler(t *testing.T) {
	conn := make(chan struct{}) // closed: the connection is hung up
	reply := make(chan string, 1)
	exited := make(chan struct{})
	go func() { // the handler
		defer close(exited)
		reply <- "ok"
		close(conn)
	}()
	select {
	case r := <-reply:
		if r != "ok" {
			t.Fatalf("reply %q", r)
		}
	case <-time.After(100 * time.Millisecond):
		<-exited
		close(conn) // want: close-of-closed occurred
	}
	<-conn
}
