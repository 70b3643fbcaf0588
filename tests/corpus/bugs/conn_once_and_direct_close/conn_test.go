// A connection wrapper guards the close of its done channel with a sync.Once in
// Close, so that Close may be called many times. But readLoop, on end of
// input, closes done directly instead of calling Close. After the read loop
// has ended, the owner's Close closes done again through the Once.
//
// Expected: close-of-closed, occurred, at the close inside Close's Once. The
// test waits for readLoop to finish (its direct close happens first) before it
// calls Close, so the panic happens in every run.
package conn

import (
	"io"
	"strings"
	"sync"
	"testing"
)

type Conn struct {
	r         io.Reader
	lines     chan string
	done      chan struct{}
	closeOnce sync.Once
}

func NewConn(r io.Reader) *Conn {
	return &Conn{r: r, lines: make(chan string, 16), done: make(chan struct{})}
}

func (c *Conn) readLoop() {
	buf, _ := io.ReadAll(c.r)
	for _, l := range strings.Split(strings.TrimSpace(string(buf)), "\n") {
		c.lines <- l
	}
	close(c.done) // EOF: should have been c.Close()
}

func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.done) // want: close-of-closed occurred
	})
	return nil
}

func TestConnReadsAllLines(t *testing.T) {
	c := NewConn(strings.NewReader("HELO\nMAIL FROM\nQUIT\n"))
	finished := make(chan struct{})
	go func() {
		c.readLoop()
		close(finished)
	}()
	<-finished
	if n := len(c.lines); n != 3 {
		t.Errorf("got %d lines", n)
	}
	c.Close()
}
