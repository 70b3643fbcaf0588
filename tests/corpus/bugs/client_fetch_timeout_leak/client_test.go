// A client fetches a profile in a goroutine and waits for the result with a
// timeout (select with time.After). The result channel is unbuffered, so when
// the caller has given up, the fetching goroutine blocks forever on its send.
// The test's backend stub answers only after the test has seen the timeout.
//
// Expected: goroutine-leak, occurred, chan-send, at the send of the result in
// Fetch's goroutine: the backend cannot answer before the 20 ms timeout, and
// nobody receives afterwards.
package client

import (
	"errors"
	"testing"
	"time"
)

var errTimeout = errors.New("client: timeout")

type Client struct {
	backend func(user string) string
	timeout time.Duration
}

func (c *Client) Fetch(user string) (string, error) {
	result := make(chan string)
	go func() {
		result <- c.backend(user) // want: goroutine-leak occurred chan-send
	}()
	select {
	case r := <-result:
		return r, nil
	case <-time.After(c.timeout):
		return "", errTimeout
	}
}

func TestFetchTimesOut(t *testing.T) {
	release := make(chan struct{})
	c := &Client{
		backend: func(user string) string {
			<-release // a slow backend
			return "profile of " + user
		},
		timeout: 20 * time.Millisecond,
	}
	_, err := c.Fetch("alice")
	close(release)
	if !errors.Is(err, errTimeout) {
		t.Fatalf("got %v, want timeout", err)
	}
}
