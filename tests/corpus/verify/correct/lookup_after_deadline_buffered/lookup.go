// Lookup asks a backend on a goroutine of its own and gives up after a
// deadline taken from time.After. The answer channel has room for the
// answer, so a goroutine whose answer comes after the deadline still ends.
package lookup

import (
	"errors"
	"time"
)

var errTimeout = errors.New("lookup: timed out")

func Lookup(backend func(string) string, name string, deadline time.Duration) (string, error) {
	answer := make(chan string, 1) // the late answer has room
	go func() {
		answer <- backend(name)
	}()
	select {
	case a := <-answer:
		return a, nil
	case <-time.After(deadline):
		return "", errTimeout
	}
}
