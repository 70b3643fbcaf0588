// Two tests each open a session with two locks and start a goroutine that
// takes them, the first test in the order a then b, the second b then a.
// Each session's locks are its own: there is no lock-order inversion. The
// first session is garbage when the second test starts (it collects it),
// and a session of the same size that lives on with a finalizer shares its
// memory span: the recorder must still give the dead session's mutexes up
// (only the object that has the finalizer can come back after the GC), so
// that a new session at the dead one's address gets new object ids.
// Expected: no findings (tests/record checks that no mutex id is in both
// tests).
package sessions_next_to_a_finalizer

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

// kept lives for the whole run, with a finalizer: its span has a special.
var kept []*session

func init() {
	for i := 0; i < 8; i++ {
		s := &session{}
		runtime.SetFinalizer(s, func(*session) {})
		kept = append(kept, s)
	}
}

func open(first, second func(*session) *sync.Mutex) {
	for i := 0; i < 64; i++ {
		s := &session{}
		go func() {
			first(s).Lock()
			second(s).Lock()
			s.n++
			second(s).Unlock()
			first(s).Unlock()
		}()
	}
	time.Sleep(10 * time.Millisecond)
}

func lockA(s *session) *sync.Mutex { return &s.a }
func lockB(s *session) *sync.Mutex { return &s.b }

func TestSessionsTakeAThenB(t *testing.T) {
	open(lockA, lockB)
}

func TestSessionsTakeBThenA(t *testing.T) {
	runtime.GC()
	runtime.GC()
	open(lockB, lockA)
}
