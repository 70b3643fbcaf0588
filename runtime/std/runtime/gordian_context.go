// Gordian recorder: the runtime side of the context hooks
// (runtime/std/context/gordian_context.go): marks the Done channel of a
// context with a deadline, so that a goroutine waiting on it is not taken
// for blocked forever (gordian_settle.go).

package runtime

import _ "unsafe" // for go:linkname

//go:linkname context_gordianEnabled context.gordianEnabled
func context_gordianEnabled() bool { return gordianOn }

// context_gordianMarkDone marks done with the deadline now+dur, or, with
// parent non-nil, with parent's mark (none: it reports false and marks
// nothing). An earlier deadline already on done is kept. done is not yet
// visible to other goroutines.
//
//go:linkname context_gordianMarkDone context.gordianMarkDone
func context_gordianMarkDone(done, parent *hchan, dur int64) bool {
	if done == nil {
		return false
	}
	var when int64
	if parent != nil {
		when = parent.gordian.deadline
	} else {
		when = nanotime()
		if dur > 1<<62-when {
			dur = 1<<62 - when // time.Duration's far future must not wrap
		}
		when += dur
	}
	if when == 0 {
		return false
	}
	if d := done.gordian.deadline; d == 0 || when < d {
		done.gordian.deadline = when
	}
	return true
}
