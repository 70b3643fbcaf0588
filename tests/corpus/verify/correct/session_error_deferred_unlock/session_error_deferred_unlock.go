// Session.Save's twin: the unlock is deferred, so the error path releases
// the lock too.
package session

import (
	"errors"
	"sync"
)

type Session struct {
	mu   sync.Mutex
	data map[string]string
}

func (s *Session) Save(k, v string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k == "" {
		return errors.New("empty key")
	}
	s.data[k] = v
	return nil
}

func SaveTwice(k string) {
	s := &Session{data: map[string]string{}}
	s.Save(k, "a")
	s.Save(k, "b")
}
