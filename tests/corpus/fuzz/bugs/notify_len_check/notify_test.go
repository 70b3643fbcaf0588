// Two events notify a waiter through a channel of capacity 1. A notifier
// skips its send when a notification is already pending (len(pending) is
// not 0), so that it never blocks. The check and the send are two steps:
// when both notifiers check before either sends, both send; the second
// send blocks forever, and so does the waiter, which waits for both
// notifiers before it takes the notification: a global deadlock.
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the second event comes 10 ms after the first, whose check and send take
// nanoseconds, so the second notifier always sees the pending notification
// and skips its send. len(ch) is not an operation the recorder sees: the
// trace holds one send and a second goroutine that sent nothing, and no
// reordering of recorded operations makes it send. What finds it: a delay
// point (the delay strategy) that holds the first notifier at its send
// until the second has checked; both then send.
package notify_len_check

import (
	"sync"
	"testing"
	"time"
)

func TestNotifySkipsWhenPending(t *testing.T) {
	pending := make(chan struct{}, 1)
	var wg sync.WaitGroup
	notify := func() {
		defer wg.Done()
		if len(pending) == 0 {
			pending <- struct{}{} // want: global-deadlock occurred
		}
	}
	wg.Add(2)
	go notify()
	go func() {
		time.Sleep(10 * time.Millisecond)
		notify()
	}()
	wg.Wait() // want: global-deadlock occurred
	<-pending
}
