// A client reconnects after a drop by scheduling a redial with
// time.AfterFunc; the timer's callback dials and then runs the read loop
// in its own goroutine. The read loop selects on the context and on the
// connection's frames, and hands each frame it took to the application
// with a plain send. The application loops on a select of the context and
// the frames. When the context is cancelled after the read loop took a
// frame but before the application took it, the application leaves on the
// cancel and the read loop blocks in its send forever (goroutine leak).
//
// A plain run hands the frame over long before the test cancels (it
// settles for 20 ms first). Only a sleep orders the application's receive
// before the cancel: the other schedule, where the application's select
// takes the cancel first, leaves the read loop's send with no partner.
// Expected: goroutine-leak, predicted (and confirmed by replay), at the
// read loop's send.
package redial

import (
	"context"
	"testing"
	"time"
)

type Client struct {
	frames chan string
	dial   func() <-chan string
}

// reconnect dials again after backoff and reads the new connection until
// ctx ends.
func (c *Client) reconnect(ctx context.Context, backoff time.Duration) {
	time.AfterFunc(backoff, func() {
		conn := c.dial()
		for {
			select {
			case <-ctx.Done():
				return
			case f := <-conn:
				c.frames <- f // want: goroutine-leak predicted chan-send
			}
		}
	})
}

func (c *Client) app(ctx context.Context, got *[]string) {
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-c.frames:
			*got = append(*got, f)
		}
	}
}

func TestReconnectResumesFrames(t *testing.T) {
	c := &Client{frames: make(chan string)}
	c.dial = func() <-chan string {
		conn := make(chan string, 1)
		conn <- "hello again"
		return conn
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.reconnect(ctx, time.Millisecond)
	var got []string
	done := make(chan struct{})
	go func() {
		c.app(ctx, &got)
		close(done)
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	<-done
}
