// A client is opened lazily (its outbox is made) through a sync.Once, and
// Close goes through the same Once so that a client closed before it was
// ever opened is never opened afterwards. The sender opens the client and
// sends on the outbox; the cleanup closes it. When Close's Do comes first,
// Open's Do does nothing, the outbox stays nil, and the sender's send on
// the nil channel blocks forever (goroutine leak).
//
// Why 20 plain runs do not show it and `gordian test` does not predict it:
// the sender opens the client at once and the cleanup closes it 20 ms
// later, so Open's function always runs. Which of the two Do calls comes
// first decides whether the outbox is made, and no detector reorders
// Once.Do calls. What finds it: the two Do calls in the other order (the
// pair-flip strategy).
package close_before_open_once

import (
	"sync"
	"testing"
	"time"
)

type client struct {
	once   sync.Once
	outbox chan string
}

func (c *client) Open() {
	c.once.Do(func() { c.outbox = make(chan string, 1) })
}

// Close before Open uses the Once up, so that the client is never opened.
func (c *client) Close() {
	c.once.Do(func() {})
}

func TestOpenSendClose(t *testing.T) {
	c := &client{}
	steps := make(chan string)
	go func() { // the sender
		c.Open()
		steps <- "opened"
		c.outbox <- "hello" // want: goroutine-leak occurred nil-chan
	}()
	go func() { // the cleanup
		time.Sleep(20 * time.Millisecond)
		c.Close()
		steps <- "closed"
	}()
	<-steps
	<-steps
}
