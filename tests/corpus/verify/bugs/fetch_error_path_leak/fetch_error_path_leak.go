// Fetch starts a sender and returns early on an error, leaving the sender
// blocked: no test takes the error path, the model does.
package fetch

import "errors"

func Fetch(fail bool) (int, error) {
	ch := make(chan int)
	go func() { ch <- 42 }() // want: goroutine-leak predicted chan-send
	if fail {
		return 0, errors.New("failed")
	}
	return <-ch, nil
}
