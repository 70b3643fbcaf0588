// Fetch's twin: the channel has room for the one result, so the sender
// finishes even when the caller returned early.
package fetch

import "errors"

func Fetch(fail bool) (int, error) {
	ch := make(chan int, 1)
	go func() { ch <- 42 }()
	if fail {
		return 0, errors.New("failed")
	}
	return <-ch, nil
}
