// Two tests each open a session with two locks and start a goroutine that
// takes them, the first test in the order a then b, the second b then a.
// Each session's locks are its own: no goroutine ever takes the other
// session's locks, so there is no lock-order inversion. The sessions are
// garbage between the tests (the second test collects it), so the
// allocator may hand the second session the first one's address: the
// recorder must still tell the two sessions' mutexes apart (an address the
// GC found dead gets a new object id).
// Expected: no findings.
package sessions_at_reused_addresses

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

type session struct {
	a, b sync.Mutex
	n    int
}

func TestSessionTakesAThenB(t *testing.T) {
	s := &session{}
	go func() {
		s.a.Lock()
		s.b.Lock()
		s.n++
		s.b.Unlock()
		s.a.Unlock()
	}()
	time.Sleep(10 * time.Millisecond)
}

func TestSessionTakesBThenA(t *testing.T) {
	runtime.GC()
	runtime.GC()
	s := &session{}
	go func() {
		s.b.Lock()
		s.a.Lock()
		s.n++
		s.a.Unlock()
		s.b.Unlock()
	}()
	time.Sleep(10 * time.Millisecond)
}
