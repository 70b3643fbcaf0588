// Session.Save returns on a validation error without unlocking; the next
// Save locks again and blocks. The test only saves valid data, so no run
// takes the error path; the model does.
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
	s.mu.Lock() // want: double-lock predicted
	if k == "" {
		return errors.New("empty key")
	}
	s.data[k] = v
	s.mu.Unlock()
	return nil
}

func SaveTwice(k string) {
	s := &Session{data: map[string]string{}}
	s.Save(k, "a")
	s.Save(k, "b")
}
