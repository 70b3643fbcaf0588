// A session handler takes a user's events from one channel: "login" locks
// the session's mutex (the user holds the session), "logout" unlocks it.
// Login and logout come from two goroutines (the login page and the
// logout button), and the handler trusts that login comes first. When the
// logout comes first, its Unlock finds the mutex unlocked: a fatal error
// (unlock of unlocked mutex).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the logout comes 50 ms after the login, so the first event received is
// always the login. What the handler does depends on the value received:
// the recorded trace holds the Lock and the Unlock in that order in one
// goroutine, and no reordering of recorded operations swaps them. What
// finds it: the first receive's alternative partner (the logout's send) as
// a schedule prefix (the prediction-guided strategy); the handler then
// unlocks first.
package logout_before_login

import (
	"sync"
	"testing"
	"time"
)

func TestSessionLoginThenLogout(t *testing.T) {
	events := make(chan string)
	var session sync.Mutex // held while the user is logged in
	go func() { events <- "login" }()
	go func() {
		time.Sleep(50 * time.Millisecond)
		events <- "logout"
	}()
	for i := 0; i < 2; i++ {
		switch e := <-events; e {
		case "login":
			session.Lock()
		case "logout":
			session.Unlock() // want: unlock-of-unlocked occurred
		default:
			t.Fatalf("event %q", e)
		}
	}
}
