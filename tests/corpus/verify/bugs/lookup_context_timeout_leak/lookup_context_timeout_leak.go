// Lookup gives its resolver a context deadline: when the context ends
// first, Lookup returns and the resolver's send on the unbuffered answer
// channel has no receiver any more.
package lookup

import (
	"context"
	"time"
)

func resolve(name string) string { return name + ".local" }

func Lookup(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	answer := make(chan string)
	go func() {
		answer <- resolve(name) // want: goroutine-leak predicted chan-send
	}()
	select {
	case a := <-answer:
		return a, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
