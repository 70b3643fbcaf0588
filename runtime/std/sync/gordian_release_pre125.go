// Gordian recorder: sync internals whose shape differs between Go
// releases, as Go 1.23 and 1.24 have them (gordian_release_go125.go says
// what each is).

//go:build !go1.25

package sync

func (o *Once) gordianDone() bool { return o.done.Load() != 0 }

func (o *Once) gordianSetDone() { o.done.Store(1) }
