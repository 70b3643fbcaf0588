// Close closes a channel field that was never made.
package conn

type Conn struct {
	quit chan struct{}
}

func Close() {
	c := &Conn{}
	close(c.quit) // want: close-of-nil predicted
}
