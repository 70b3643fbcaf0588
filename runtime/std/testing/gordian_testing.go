// Gordian recorder: test attribution. This file is added to package testing
// by the Gordian overlay (runtime/std in the Gordian repository); the
// patched tRunner calls gordianTestRun before a test function runs and
// defers gordianTestDone before the defer that runs the test's cleanups, so
// that the test ends after its cleanups, as Go marks it done only then (a
// goroutine a t.Cleanup waits for may still log). The runtime records
// TestStart, TestEnd and one
// BlockedAtTestEnd per goroutine of the test still blocked at its end
// (runtime/gordian_proc.go; docs/trace-format.md, "Tests"). The patched
// reporting methods of common (Log, Error, Fatal, Skip, Fail, FailNow,
// SkipNow and their f forms) call gordianCall: one TestCall record per call
// from outside package testing, in the calling goroutine.

package testing

import (
	"runtime"
	_ "unsafe" // for go:linkname
)

// Implemented in package runtime (gordian_proc.go).

//go:linkname gordianEnabled
func gordianEnabled() bool

//go:linkname gordianTestStart
func gordianTestStart(name string) uint32

//go:linkname gordianTestEnd
func gordianTestEnd(idx uint32, failed bool)

//go:linkname gordianTestCall
func gordianTestCall(idx uint32, class uint32, pc uintptr)

// TestCall classes (src/gordian/trace/event.h, TestCallClass).
const (
	gordianCallLog     = 1 // Log, Logf
	gordianCallFail    = 2 // Fail, Error, Errorf
	gordianCallFailNow = 3 // FailNow, Fatal, Fatalf
	gordianCallSkipNow = 4 // SkipNow, Skip, Skipf
)

var gordianOn = gordianEnabled()

// gordianTestRun records the start of t's function and keeps its test
// index in t (0 when not recording, and for the root test that runs the
// others).
func gordianTestRun(t *T) {
	if !gordianOn || t.parent == nil {
		return
	}
	t.gordianIdx = gordianTestStart(t.Name())
}

// gordianCall records a call of a reporting method of c (the caller of
// gordianCall) by the method's caller. Calls that testing makes itself
// (Error calls Fail, Fatal calls FailNow) are left out by the runtime, so
// that a user's call is one record.
func (c *common) gordianCall(class uint32) {
	if !gordianOn || c.gordianIdx == 0 {
		return
	}
	var pc [1]uintptr
	// 0 runtime.Callers, 1 gordianCall, 2 the method, 3 its caller.
	if runtime.Callers(3, pc[:]) == 1 {
		gordianTestCall(c.gordianIdx, class, pc[0])
	}
}

// gordianTestDone records the end of t: its function and its cleanups
// (deferred in tRunner, so it runs on return, FailNow and panic).
func gordianTestDone(t *T) {
	if t.gordianIdx == 0 {
		return
	}
	gordianTestEnd(t.gordianIdx, t.Failed())
}
