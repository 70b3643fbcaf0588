// Two shapes that a verdict must get right under any schedule, fuzzed:
//   - an error channel closed on success (defer close(errCh)): the caller's
//     `if err := <-errCh; err != nil` receives the zero value of the
//     closed channel on purpose; no warning;
//   - two tests' sessions, each with its own pair of locks taken in
//     opposite orders by the two tests: different objects (even when the
//     second session is allocated where the first one was), so no
//     lock-order inversion.
// Expected: no bugs or warnings.
package results_and_sessions

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

func accept(fail bool) <-chan error {
	errCh := make(chan error, 1)
	go func() {
		defer close(errCh)
		if fail {
			errCh <- errors.New("refused")
		}
	}()
	return errCh
}

func TestAcceptSucceedsAndFails(t *testing.T) {
	if err := <-accept(false); err != nil {
		t.Fatal(err)
	}
	if err := <-accept(true); err == nil {
		t.Fatal("want an error")
	}
}

type session struct {
	a, b sync.Mutex
	n    int
}

func TestSessionAThenB(t *testing.T) {
	s := &session{}
	go func() {
		s.a.Lock()
		s.b.Lock()
		s.n++
		s.b.Unlock()
		s.a.Unlock()
	}()
	time.Sleep(5 * time.Millisecond)
}

func TestSessionBThenA(t *testing.T) {
	runtime.GC()
	s := &session{}
	go func() {
		s.b.Lock()
		s.a.Lock()
		s.n++
		s.a.Unlock()
		s.b.Unlock()
	}()
	time.Sleep(5 * time.Millisecond)
}
