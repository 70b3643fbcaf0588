// Gordian recorder: the link between Go's goroutine ids and the recorder's
// dense gids, for programs built with -race. See gordian.go and
// docs/trace-format.md (goroutines.txt).
//
// Go's race detector names goroutines by their goid ("Write at 0x... by
// goroutine 9"); the trace names them by gid and spawn path. Gordian turns a
// race report into a finding with stable goroutine ids (src/gordian/race/),
// so it needs both. The line is written only under -race: elsewhere nothing
// reads it, and a write(2) per goroutine is a cost the recorder avoids.

package runtime

import "unsafe"

// gordianOpenGoroutines opens goroutines.txt when the program is built with
// -race; it is called by gordianOpenTrace with a function that creates a
// side file of the trace directory for appending. Failing to open it only
// loses the goid mapping.
func gordianOpenGoroutines(create func(name string) int32) {
	if !raceenabled {
		return
	}
	fd := create("goroutines.txt")
	if fd > 0 {
		gordian.goroutinesFd = fd
	}
	gordianMeta("race", "1")
}

// gordianGoroutineLine appends "gid parent index goid" for the goroutine
// whose state is st, when its first chunk is started (the goroutine records
// its first operation, or ends). st is the field g.gordian of that goroutine
// (never the recorder's pseudo-goroutine, which has no goid); the goroutine
// may not be the one running (a parent records GoSpawn on the system stack),
// hence the goid is read from the g that contains st.
func gordianGoroutineLine(st *gordianG) {
	if !raceenabled || gordian.goroutinesFd <= 0 || st == &gordian.recorder {
		return
	}
	gp := (*g)(unsafe.Pointer(uintptr(unsafe.Pointer(st)) - unsafe.Offsetof(g{}.gordian)))
	lock(&gordian.sideLock)
	b := gordian.sideBuf[:0]
	b = gordianAppendUint(b, uint64(st.gid))
	b = append(b, '\t')
	b = gordianAppendUint(b, uint64(st.parent))
	b = append(b, '\t')
	b = gordianAppendUint(b, uint64(st.index))
	b = append(b, '\t')
	b = gordianAppendUint(b, gp.goid)
	b = append(b, '\n')
	gordianWriteAll(gordian.goroutinesFd, b)
	unlock(&gordian.sideLock)
}
