// Close's twin: the field is made first.
package conn

type Conn struct {
	quit chan struct{}
}

func Close() {
	c := &Conn{quit: make(chan struct{})}
	close(c.quit)
}
