// Tests that check an API's misuse panics on purpose: each misuse runs inside
// mustPanic, whose deferred recover catches the panic and checks its message,
// so the test goes on and passes. The WaitGroup counter goes negative, a
// channel is closed twice, a send hits a closed channel and a nil channel is
// closed, but every one of these panics is recovered: the program is correct,
// and gordian must report them as warnings (recovered panics), not bugs.
// (Unlocking an unlocked Mutex is a fatal error that no recover catches, so
// it cannot be tested this way.) Expected: no bug findings.
package misuse

import (
	"strings"
	"sync"
	"testing"
)

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		msg := ""
		if e := recover(); e != nil {
			if err, ok := e.(error); ok {
				msg = err.Error()
			} else {
				msg, _ = e.(string)
			}
		}
		if !strings.Contains(msg, want) {
			t.Fatalf("panic %q, want one containing %q", msg, want)
		}
	}()
	f()
}

func TestNegativeCounterPanics(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	wg.Done()
	mustPanic(t, "negative WaitGroup counter", func() { wg.Add(-1) })
}

func TestDoubleClosePanics(t *testing.T) {
	ch := make(chan int)
	close(ch)
	mustPanic(t, "close of closed channel", func() { close(ch) })
}

func TestSendOnClosedPanics(t *testing.T) {
	ch := make(chan int, 1)
	close(ch)
	mustPanic(t, "send on closed channel", func() { ch <- 1 })
}

func TestCloseNilPanics(t *testing.T) {
	var ch chan int
	mustPanic(t, "close of nil channel", func() { close(ch) })
}
