// Close called from many goroutines at once (the read loop on error, the
// write loop on error, the owner on shutdown): the close of the done channel
// is guarded by a sync.Once, so it happens exactly once whatever the order,
// and everyone waiting on done is released. Expected: no findings.
package conn

import (
	"sync"
	"testing"
)

type Conn struct {
	done      chan struct{}
	closeOnce sync.Once
	closedBy  string
}

func (c *Conn) Close(who string) {
	c.closeOnce.Do(func() {
		c.closedBy = who
		close(c.done)
	})
}

func TestConcurrentClose(t *testing.T) {
	c := &Conn{done: make(chan struct{})}
	var wg sync.WaitGroup
	for _, who := range []string{"reader", "writer", "owner", "keepalive"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close(who)
			<-c.done
		}()
	}
	wg.Wait()
	if c.closedBy == "" {
		t.Fatal("nobody closed")
	}
}
