// Gordian recorder: test attribution. This file is added to package testing
// by the Gordian overlay (runtime/std in the Gordian repository); the
// patched tRunner calls gordianTestRun before a test function runs and
// defers gordianTestDone. The runtime records TestStart, TestEnd and one
// BlockedAtTestEnd per goroutine of the test still blocked at its end
// (runtime/gordian_proc.go; docs/trace-format.md, "Tests").

package testing

import _ "unsafe" // for go:linkname

// Implemented in package runtime (gordian_proc.go).

//go:linkname gordianEnabled
func gordianEnabled() bool

//go:linkname gordianTestStart
func gordianTestStart(name string) uint32

//go:linkname gordianTestEnd
func gordianTestEnd(idx uint32, failed bool)

var gordianOn = gordianEnabled()

// gordianTestRun records the start of t's function and returns its test
// index (0 when not recording, and for the root test that runs the others).
func gordianTestRun(t *T) uint32 {
	if !gordianOn || t.parent == nil {
		return 0
	}
	return gordianTestStart(t.Name())
}

// gordianTestDone records the end of t's function (deferred in tRunner, so
// it runs on return, FailNow and panic).
func gordianTestDone(t *T, idx uint32) {
	if idx == 0 {
		return
	}
	gordianTestEnd(idx, t.Failed())
}
