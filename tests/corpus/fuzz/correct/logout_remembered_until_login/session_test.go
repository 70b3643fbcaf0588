// The shape of fuzz/bugs/logout_before_login done right: the handler
// remembers whether the user is logged in; a logout that comes before the
// login is kept and applied right after it, so the mutex is unlocked only
// when held, whichever event comes first.
package logout_remembered_until_login

import (
	"sync"
	"testing"
	"time"
)

func TestSessionLoginThenLogout(t *testing.T) {
	events := make(chan string)
	var session sync.Mutex // held while the user is logged in
	loggedIn, logoutPending := false, false
	go func() { events <- "login" }()
	go func() {
		time.Sleep(50 * time.Millisecond)
		events <- "logout"
	}()
	for i := 0; i < 2; i++ {
		switch e := <-events; e {
		case "login":
			session.Lock()
			loggedIn = true
			if logoutPending {
				session.Unlock()
				loggedIn = false
			}
		case "logout":
			if loggedIn {
				session.Unlock()
				loggedIn = false
			} else {
				logoutPending = true
			}
		default:
			t.Fatalf("event %q", e)
		}
	}
}
