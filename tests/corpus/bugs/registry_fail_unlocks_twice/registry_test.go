// A service registry rejects duplicate names. Its error helper fail releases
// the lock itself (so that callers can `return r.fail(err)`), but the
// duplicate path in Register also unlocks after calling fail.
//
// Expected: unlock-of-unlocked, occurred, at the Unlock after fail in Register
// (a fatal error, not a recoverable panic). The test registers the same name
// twice from one goroutine, so it happens in every run.
package registry

import (
	"errors"
	"sync"
	"testing"
)

var (
	errEmpty = errors.New("registry: empty name")
	errDup   = errors.New("registry: duplicate name")
)

type Registry struct {
	mu     sync.Mutex
	addrs  map[string]string
	errors int
}

func (r *Registry) fail(err error) error {
	r.errors++
	r.mu.Unlock()
	return err
}

func (r *Registry) Register(name, addr string) error {
	r.mu.Lock()
	if name == "" {
		return r.fail(errEmpty)
	}
	if _, dup := r.addrs[name]; dup {
		err := r.fail(errDup)
		r.mu.Unlock() // want: unlock-of-unlocked occurred
		return err
	}
	r.addrs[name] = addr
	r.mu.Unlock()
	return nil
}

func TestRegisterDuplicate(t *testing.T) {
	r := &Registry{addrs: map[string]string{}}
	if err := r.Register("billing", "10.0.0.7:80"); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("billing", "10.0.0.8:80"); !errors.Is(err, errDup) {
		t.Fatalf("got %v, want %v", err, errDup)
	}
}
