// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.26 and later have them. gordian_release_pre126.go is
// the same for Go 1.23 to 1.25; the rest of the recorder calls only these.

//go:build go1.26

package runtime

// gordianSudogChan is the channel a parked goroutine's sudog waits on
// (a maybeTraceableChan since 1.26).
func gordianSudogChan(sg *sudog) *hchan { return sg.c.get() }
