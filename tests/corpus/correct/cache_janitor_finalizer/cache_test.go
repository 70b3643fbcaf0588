// A cache whose expired entries are removed by a janitor goroutine on a
// time.Ticker. Users hold a *Cache, a wrapper around the state the janitor
// uses; a finalizer on the wrapper closes the janitor's stop channel once
// the wrapper is unreachable, so a forgotten cache does not keep its
// janitor forever. The test does not wait for the garbage collector: when
// the test (and then the program) ends, the janitor is parked in a select on
// its live ticker and its stop channel. Neither is blocked forever: the
// ticker keeps waking it, and the finalizer will stop it.
// Expected: no findings.
package cache

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

type entry struct {
	value   string
	expires time.Time
}

type state struct {
	mu    sync.Mutex
	items map[string]entry
}

type Cache struct {
	*state
}

func New(every time.Duration) *Cache {
	s := &state{items: map[string]entry{}}
	stop := make(chan struct{})
	go s.janitor(every, stop)
	c := &Cache{s}
	runtime.SetFinalizer(c, func(*Cache) { close(stop) })
	return c
}

func (s *state) janitor(every time.Duration, stop <-chan struct{}) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case now := <-tick.C:
			s.removeExpired(now)
		case <-stop:
			return
		}
	}
}

func (s *state) removeExpired(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.items {
		if now.After(e.expires) {
			delete(s.items, k)
		}
	}
}

func (s *state) Set(k, v string, ttl time.Duration) {
	s.mu.Lock()
	s.items[k] = entry{v, time.Now().Add(ttl)}
	s.mu.Unlock()
}

func (s *state) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.items[k]
	if !ok || time.Now().After(e.expires) {
		return "", false
	}
	return e.value, true
}

func TestGetBeforeAndAfterExpiry(t *testing.T) {
	c := New(5 * time.Millisecond)
	c.Set("k", "v", 15*time.Millisecond)
	if v, ok := c.Get("k"); !ok || v != "v" {
		t.Fatalf("Get = %q, %v", v, ok)
	}
	time.Sleep(30 * time.Millisecond)
	if _, ok := c.Get("k"); ok {
		t.Fatal("expired entry still returned")
	}
}
