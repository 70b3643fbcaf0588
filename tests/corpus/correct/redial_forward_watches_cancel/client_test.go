// The twin of bugs/redial_forwards_after_cancel: the read loop's hand-off
// is a select on the send and the context, so a cancel releases a read
// loop that is waiting to hand a frame over. Expected: no findings.
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
				select {
				case c.frames <- f:
				case <-ctx.Done():
					return
				}
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
