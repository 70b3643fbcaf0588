// A fake mail relay for tests: a helper starts it, and registers a
// t.Cleanup that closes its queue and waits until it has drained. While it
// drains, the relay logs every message it still delivers, and finally a
// summary, with t.Logf: after the test function has returned, but before
// the cleanup returns. Go marks a test done only after its cleanups have
// run, so these calls are legal: Go does not panic and the test passes.
// Expected: no findings (no testing-after-end: the calls are ordered before
// the test's end by the cleanup's receive on the drained channel).
package mailer

import (
	"testing"
	"time"
)

type message struct{ to, body string }

// startRelay starts the relay and returns its queue; the test's cleanup
// stops it and waits for it.
func startRelay(t *testing.T) chan<- message {
	t.Helper()
	queue := make(chan message, 8)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		sent := 0
		for m := range queue {
			time.Sleep(20 * time.Millisecond) // the remote end is slow
			t.Logf("relayed to %s (%d bytes)", m.to, len(m.body))
			sent++
		}
		t.Logf("relay stopped after %d messages", sent)
	}()
	t.Cleanup(func() {
		close(queue)
		<-drained
	})
	return queue
}

func TestSignupSendsWelcome(t *testing.T) {
	relay := startRelay(t)
	for _, to := range []string{"ada@example.com", "bob@example.com"} {
		relay <- message{to: to, body: "welcome"}
	}
	// The test returns while the relay still delivers; its cleanup waits.
}
