// A config store is read under an RWMutex. Get read-locks it and, for a
// missing key, returns the default without releasing the read lock. The reload
// goroutine then waits for the write lock forever and outlives the test.
//
// Expected: goroutine-leak, occurred, rwmutex, at the reloader's Lock. The test
// reads a missing key before it asks for the reload.
package config

import (
	"strings"
	"sync"
	"testing"
)

type Store struct {
	mu      sync.RWMutex
	values  map[string]string
	reloads chan string
}

func (s *Store) Get(key, def string) string {
	s.mu.RLock()
	v, ok := s.values[key]
	if !ok {
		return def // BUG: still read-locked
	}
	s.mu.RUnlock()
	return v
}

func (s *Store) reloader() {
	for text := range s.reloads {
		next := map[string]string{}
		for _, kv := range strings.Split(text, ";") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				next[k] = v
			}
		}
		s.mu.Lock() // want: goroutine-leak occurred rwmutex
		s.values = next
		s.mu.Unlock()
	}
}

func TestGetDefault(t *testing.T) {
	s := &Store{values: map[string]string{"port": "8080"}, reloads: make(chan string)}
	go s.reloader()
	if got := s.Get("timeout", "30s"); got != "30s" {
		t.Fatalf("got %q", got)
	}
	s.reloads <- "port=9090;timeout=10s"
}
