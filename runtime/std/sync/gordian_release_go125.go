// Gordian recorder: sync internals whose shape differs between Go
// releases, as Go 1.25 and later have them. gordian_release_pre125.go is
// the same for Go 1.23 and 1.24.

//go:build go1.25

package sync

// gordianDone reports whether o has run its function (done is an
// atomic.Bool since 1.25).
func (o *Once) gordianDone() bool { return o.done.Load() }

// gordianSetDone marks o as having run its function.
func (o *Once) gordianSetDone() { o.done.Store(true) }
