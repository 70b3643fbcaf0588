// Gordian recorder: context deadlines. This file is added to package
// context by the Gordian overlay (runtime/std in the Gordian repository).
//
// A goroutine waiting on ctx.Done() of a context with a deadline is not
// blocked forever: the deadline's timer will close the channel. The
// runtime cannot see that link (the timer's callback closes a channel it
// knows nothing about), so the patched context code tells it: the Done
// channel of every context that has a deadline, its own (WithDeadline,
// WithTimeout) or an ancestor's (a WithCancel below one), is made at once
// and marked with the deadline (runtime/gordian_settle.go). While the
// channel is open its timer is pending: a timerCtx stops its timer only in
// cancel, after closing the channel, and a parent's cancel closes the
// channels of its children.

package context

import (
	"time"
	_ "unsafe" // for go:linkname
)

// Implemented in package runtime (gordian_context.go).

//go:linkname gordianEnabled
func gordianEnabled() bool

//go:linkname gordianMarkDone
func gordianMarkDone(done chan struct{}, parent <-chan struct{}, dur int64) bool

var gordianOn = gordianEnabled()

// gordianInheritDeadline runs in propagateCancel, before c is published:
// when the parent's Done channel is marked, c's Done channel is made now
// and marked with the same deadline (the parent's cancel will close it).
func gordianInheritDeadline(c *cancelCtx, parentDone <-chan struct{}) {
	if !gordianOn || c.done.Load() != nil {
		return
	}
	d := make(chan struct{})
	if gordianMarkDone(d, parentDone, 0) {
		c.done.Store(d)
	}
}

// gordianTimerDeadline runs in WithDeadlineCause right after the timer is
// set (c.mu held, so it must not call c.Done): c's Done channel is marked
// with the timer's deadline.
func gordianTimerDeadline(c *cancelCtx, dur time.Duration) {
	if !gordianOn {
		return
	}
	d, _ := c.done.Load().(chan struct{})
	if d == nil {
		d = make(chan struct{})
		c.done.Store(d)
	}
	gordianMarkDone(d, nil, int64(dur))
}
