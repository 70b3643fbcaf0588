// Lookup asks a backend on a goroutine of its own and gives up after a
// deadline taken from time.After. When the deadline comes first, Lookup
// returns and the goroutine's send on the unbuffered answer channel has no
// receiver any more.
package lookup

import (
	"errors"
	"time"
)

var errTimeout = errors.New("lookup: timed out")

func Lookup(backend func(string) string, name string, deadline time.Duration) (string, error) {
	answer := make(chan string)
	go func() {
		answer <- backend(name) // want: goroutine-leak predicted chan-send
	}()
	select {
	case a := <-answer:
		return a, nil
	case <-time.After(deadline):
		return "", errTimeout
	}
}
