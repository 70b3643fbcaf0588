// The shape of fuzz/bugs/close_before_open_once done right: the sender
// checks whether Open made the outbox before it sends, so a client closed
// before it was opened drops the message instead of sending on a nil
// channel, whichever Do call comes first.
package close_before_open_checked

import (
	"sync"
	"testing"
	"time"
)

type client struct {
	once   sync.Once
	outbox chan string
}

// Open reports whether the client is open (Close did not come first).
func (c *client) Open() bool {
	c.once.Do(func() { c.outbox = make(chan string, 1) })
	return c.outbox != nil
}

// Close before Open uses the Once up, so that the client is never opened.
func (c *client) Close() {
	c.once.Do(func() {})
}

func TestOpenSendClose(t *testing.T) {
	c := &client{}
	steps := make(chan string)
	go func() { // the sender
		open := c.Open()
		steps <- "opened"
		if open {
			c.outbox <- "hello"
		}
	}()
	go func() { // the cleanup
		time.Sleep(20 * time.Millisecond)
		c.Close()
		steps <- "closed"
	}()
	<-steps
	<-steps
}
