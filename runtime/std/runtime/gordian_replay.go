// Gordian replay: forces a recorded (or rewritten) schedule on the program.
// This file is added to package runtime by the Gordian overlay; the format
// of the schedule file is docs/schedule-format.md, the policy is described
// there too ("Enforcement").
//
// Replay is on when recording is on and GORDIAN_SCHEDULE names a schedule
// file. Each controlled operation (the kinds of gordianReplayControlled) of
// a goroutine that the schedule knows (matched by spawn path) waits at its
// pre hook until the global cursor reaches its position, runs, and then
// acknowledges: the cursor moves to the next position when the operation
// has completed, or, for an operation that parks (a blocking channel
// operation, a Lock, a Wait), as soon as it is parked inside the operation
// (it is then queued in the channel or semaphore, so the next operation of
// the schedule meets it there). Operations of goroutines or positions the
// schedule does not list wait until the schedule is finished: the schedule
// is a strict prefix, then the program runs freely.
//
// Waiters poll (Gosched, then short sleeps), so no waiter ever parks in a
// way the deadlock watchdog would take for a deadlock, and every waiter
// watches for a stall: when the cursor has not moved for the stall time
// (GORDIAN_REPLAY_STALL_MS, default 1000), the head position is skipped;
// after gordianReplayMaxSkips skips the replay gives up and the program runs
// freely. Divergences and the outcome are appended to meta.txt (replay_*).

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

const (
	gordianReplayMaxG     = 1 << 20 // goroutines (by gid) that can be controlled
	gordianReplayNoSid    = 0xffffffff
	gordianReplayMaxSkips = 3
	gordianReplayFree     = -2 // choice: none given
	gordianReplayDefault  = -1 // choice: the default case
)

// gordianReplayG is the replay state of one goroutine, indexed by gid. Only
// the goroutine itself writes n and pending; sid is written at its spawn.
type gordianReplayG struct {
	sid     uint32 // schedule goroutine, gordianReplayNoSid if unknown
	n       uint32 // controlled operations done so far
	since   int64  // start of a forced non-blocking operation's retries
	pending int32  // 1 + the position released to it and not yet acknowledged, 0 none
}

var gordianReplay struct {
	on      bool
	done    atomic.Uint32 // 1: the schedule is finished or abandoned (free run)
	cursor  atomic.Int32  // next position to release
	head    atomic.Uintptr // *g the current position was released to (a guintptr)
	headPos atomic.Int32
	moved   atomic.Int64  // nanotime of the last cursor move
	skips   atomic.Uint32
	stallNs int64

	nops   int32
	opSid  []uint32 // per position
	opKind []uint8
	opCh   []int32 // select choice, gordianReplayFree when none
	gFirst []int32 // per sid: first index into gPos
	gCount []int32
	gPos   []int32  // per sid, its positions in order
	paths  []string // per sid
	kids   []uint64 // sorted parentSid<<32 | childIndex
	kidSid []uint32 // sid of kids[i]

	gs unsafe.Pointer // [gordianReplayMaxG]gordianReplayG
}

// gordianReplayControlled reports whether operations of kind k are ordered
// by a schedule. It must agree with IsControlled in
// src/gordian/schedule/schedule.h.
func gordianReplayControlled(k uint8) bool {
	switch k {
	case gkChanSend, gkChanRecv, gkChanClose, gkSelect, gkMutexLock, gkMutexUnlock,
		gkRWLock, gkRWUnlock, gkRLock, gkRUnlock, gkWgAdd, gkWgWait, gkOnceDo,
		gkCondWait, gkCondSignal, gkCondBroadcast:
		return true
	}
	return false
}

// gordianReplayInit reads the schedule named by GORDIAN_SCHEDULE. It runs
// at the end of gordianInit (schedinit, single-threaded).
func gordianReplayInit() {
	path := gogetenv("GORDIAN_SCHEDULE")
	if path == "" || !gordianOn {
		return
	}
	data, ok := gordianReadFile(path)
	if !ok {
		print("gordian: cannot read the schedule ", path, "\n")
		exit(2)
	}
	r := &gordianReplay
	r.stallNs = 1000 * 1000 * 1000
	if v := gogetenv("GORDIAN_REPLAY_STALL_MS"); v != "" {
		if n, ok := gordianAtoi(v); ok && n > 0 {
			r.stallNs = int64(n) * 1000 * 1000
		}
	}
	// Lines: "g PATH" (sid = order of the g lines; a parent before its
	// children) and "o SID KIND CHOICE ..." (position = order of the o
	// lines). Everything else is for the C++ side.
	var perSid []int32
	nops := 0 // an upper bound of the "o" lines, to size the arrays once
	for i := 0; i+1 < len(data); i++ {
		if (i == 0 || data[i-1] == '\n') && data[i] == 'o' && data[i+1] == ' ' {
			nops++
		}
	}
	r.opSid = make([]uint32, 0, nops)
	r.opKind = make([]uint8, 0, nops)
	r.opCh = make([]int32, 0, nops)
	var fields [4][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		line := data[:i]
		if i < len(data) {
			i++
		}
		data = data[i:]
		if len(line) < 3 || line[1] != ' ' {
			continue
		}
		nf := gordianFields(line[2:], &fields)
		f := fields[:nf]
		switch line[0] {
		case 'g':
			if len(f) < 1 {
				continue
			}
			p := string(f[0])
			sid := uint32(len(r.paths))
			r.paths = append(r.paths, p)
			perSid = append(perSid, 0)
			// parent path and child index
			dot := -1
			for j := len(p) - 1; j >= 0; j-- {
				if p[j] == '.' {
					dot = j
					break
				}
			}
			if dot < 0 {
				continue // "1": the main goroutine
			}
			idx, ok1 := gordianAtoi(p[dot+1:])
			par := uint32(gordianReplayNoSid)
			for j := range r.paths[:sid] {
				if r.paths[j] == p[:dot] {
					par = uint32(j)
					break
				}
			}
			if !ok1 || par == gordianReplayNoSid {
				continue
			}
			r.kids = append(r.kids, uint64(par)<<32|uint64(idx))
			r.kidSid = append(r.kidSid, sid)
		case 'o':
			if len(f) < 3 {
				continue
			}
			sid, ok1 := gordianAtoi(gordianBytesString(f[0]))
			kind, ok2 := gordianAtoi(gordianBytesString(f[1]))
			if !ok1 || !ok2 || sid >= len(r.paths) {
				print("gordian: bad schedule line: ", string(line), "\n")
				exit(2)
			}
			ch := int32(gordianReplayFree)
			if c := gordianBytesString(f[2]); c == "d" {
				ch = gordianReplayDefault
			} else if n, ok := gordianAtoi(c); ok {
				ch = int32(n)
			}
			r.opSid = append(r.opSid, uint32(sid))
			r.opKind = append(r.opKind, uint8(kind))
			r.opCh = append(r.opCh, ch)
			perSid[sid]++
		}
	}
	// Sort kids (insertion sort: schedules have few goroutines per parent).
	for i := 1; i < len(r.kids); i++ {
		for j := i; j > 0 && r.kids[j-1] > r.kids[j]; j-- {
			r.kids[j-1], r.kids[j] = r.kids[j], r.kids[j-1]
			r.kidSid[j-1], r.kidSid[j] = r.kidSid[j], r.kidSid[j-1]
		}
	}
	r.nops = int32(len(r.opSid))
	r.gFirst = make([]int32, len(r.paths))
	r.gCount = make([]int32, len(r.paths))
	r.gPos = make([]int32, len(r.opSid))
	var at int32
	for s := range perSid {
		r.gFirst[s] = at
		at += perSid[s]
	}
	for pos, s := range r.opSid {
		r.gPos[r.gFirst[s]+r.gCount[s]] = int32(pos)
		r.gCount[s]++
	}
	r.gs = sysAlloc(gordianReplayMaxG*unsafe.Sizeof(gordianReplayG{}), &memstats.other_sys, "gordian replay")
	if r.gs == nil {
		print("gordian: out of memory for the replay tables\n")
		exit(2)
	}
	r.headPos.Store(-1)
	r.moved.Store(nanotime())
	r.on = true
	gordianMeta("replay_schedule", path)
	gordianMetaInt("replay_ops", int64(r.nops))
	if r.nops == 0 {
		r.done.Store(1)
		gordianMeta("replay_status", "complete")
	}
}

// gordianReadFile reads a whole file with raw system calls.
func gordianReadFile(path string) ([]byte, bool) {
	name := append([]byte(path), 0)
	fd := open(&name[0], 0, 0)
	if fd < 0 {
		return nil, false
	}
	var out []byte
	buf := make([]byte, 64<<10)
	for {
		n := read(fd, unsafe.Pointer(&buf[0]), int32(len(buf)))
		if n < 0 {
			closefd(fd)
			return nil, false
		}
		if n == 0 {
			break
		}
		out = append(out, buf[:n]...)
	}
	closefd(fd)
	return out, true
}

// gordianFields splits b at blanks into out (at most len(out) fields, the
// rest is ignored) and returns how many it found. No allocation: the
// schedule is parsed before the program starts, one line per operation, and
// a slice per line cost about 1 KB of garbage per scheduled operation.
func gordianFields(b []byte, out *[4][]byte) int {
	n := 0
	i := 0
	for i < len(b) && n < len(out) {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		if j > i {
			out[n] = b[i:j]
			n++
		}
		i = j
	}
	return n
}

func gordianReplayState(gid uint32) *gordianReplayG {
	if gid == 0 || gid >= gordianReplayMaxG {
		return nil
	}
	return (*gordianReplayG)(add(gordianReplay.gs, uintptr(gid)*unsafe.Sizeof(gordianReplayG{})))
}

// gordianReplaySpawn gives a new goroutine its schedule id (runs in
// gordianNewproc on the system stack: no allocation).
//
//go:nosplit
func gordianReplaySpawn(gid, parent, index uint32) {
	if !gordianReplay.on {
		return
	}
	s := gordianReplayState(gid)
	if s == nil {
		return
	}
	s.sid, s.n, s.pending = gordianReplayNoSid, 0, 0
	if gid == 1 {
		if len(gordianReplay.paths) > 0 && gordianReplay.paths[0] == "1" {
			s.sid = 0
		}
		return
	}
	ps := gordianReplayState(parent)
	if ps == nil || ps.sid == gordianReplayNoSid {
		return
	}
	key := uint64(ps.sid)<<32 | uint64(index)
	lo, hi := 0, len(gordianReplay.kids)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if gordianReplay.kids[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(gordianReplay.kids) && gordianReplay.kids[lo] == key {
		s.sid = gordianReplay.kidSid[lo]
	}
}

// gordianReplayWait is called by a controlled operation of kind before its
// record is written. It returns the select choice the schedule wants
// (gordianReplayFree when none).
func gordianReplayWait(st *gordianG, kind uint8) int32 {
	r := &gordianReplay
	if !r.on || r.done.Load() != 0 || !gordianReplayControlled(kind) {
		return gordianReplayFree
	}
	s := gordianReplayState(st.gid)
	if s == nil {
		return gordianReplayFree
	}
	if s.pending > 0 { // the previous operation panicked and was recovered
		gordianReplayAck(s.pending - 1)
		s.pending = 0
	}
	pos := int32(-1)
	if s.sid != gordianReplayNoSid && int32(s.n) < r.gCount[s.sid] {
		pos = r.gPos[r.gFirst[s.sid]+int32(s.n)]
	}
	s.n++
	if pos < 0 {
		gordianReplayPoll(-1) // not in the schedule: after it
		return gordianReplayFree
	}
	if r.opKind[pos] != kind {
		gordianReplayDiverge(pos, s.sid, kind)
		return gordianReplayFree
	}
	if !gordianReplayPoll(pos) {
		return gordianReplayFree
	}
	s.pending = pos + 1
	r.head.Store(uintptr(unsafe.Pointer(getg())))
	r.headPos.Store(pos)
	return r.opCh[pos]
}

// gordianReplayDone acknowledges the goroutine's released operation.
func gordianReplayDone(st *gordianG) {
	if !gordianReplay.on {
		return
	}
	s := gordianReplayState(st.gid)
	if s == nil || s.pending == 0 {
		return
	}
	gordianReplayAck(s.pending - 1)
	s.pending = 0
}

// gordianReplayDrain is called when a test ends or the program exits: while
// the schedule still has positions and the cursor keeps moving, it waits,
// so that scheduled operations of other goroutines are not cut off by the
// exit (a goroutine waiting for its turn is asleep, and neither the test's
// settle loop nor exit waits for it). It gives up when the cursor has not
// moved for the stall time; the waiters' own stall policy then applies.
func gordianReplayDrain() {
	r := &gordianReplay
	if !r.on {
		return
	}
	for r.done.Load() == 0 {
		if nanotime()-r.moved.Load() > r.stallNs {
			return
		}
		timeSleep(50 * 1000)
	}
}

// gordianReplayAck moves the cursor past pos (if it is still there).
func gordianReplayAck(pos int32) {
	r := &gordianReplay
	if r.cursor.CompareAndSwap(pos, pos+1) {
		r.moved.Store(nanotime())
		if pos+1 >= r.nops && r.done.Swap(1) == 0 {
			gordianMeta("replay_status", "complete")
		}
	}
}

// gordianReplayPoll waits until the cursor is at pos (pos -1: until the
// schedule is done). It returns false when the schedule was abandoned or
// pos was skipped (the operation then runs freely).
func gordianReplayPoll(pos int32) bool {
	r := &gordianReplay
	for spins := 0; ; spins++ {
		if r.done.Load() != 0 {
			return false
		}
		c := r.cursor.Load()
		if c == pos {
			return true
		}
		if pos >= 0 && c > pos {
			return false // skipped by the stall policy
		}
		// The head is parked inside its operation: it is queued, let the
		// next one come.
		if hp := r.headPos.Load(); hp == c {
			if h := (*g)(unsafe.Pointer(r.head.Load())); h != nil &&
				readgstatus(h)&^_Gscan == _Gwaiting && h.gordian.blocked != 0 && r.headPos.Load() == c {
				gordianReplayAck(c)
				continue
			}
		}
		if now := nanotime(); now-r.moved.Load() > r.stallNs {
			gordianReplayStall(c, now)
			continue
		}
		if spins < 50 {
			Gosched()
		} else if spins < 200 {
			timeSleep(20 * 1000)
		} else {
			timeSleep(200 * 1000)
		}
	}
}

// gordianReplayStall applies the stall policy at position c: skip it, or
// give up after gordianReplayMaxSkips skips.
func gordianReplayStall(c int32, now int64) {
	r := &gordianReplay
	old := r.moved.Load()
	if now-old <= r.stallNs || !r.moved.CompareAndSwap(old, now) {
		return // another waiter handles this stall
	}
	if r.cursor.Load() != c {
		return
	}
	sid := r.opSid[c]
	n := r.skips.Add(1)
	if n == 1 {
		gordianMetaInt("replay_stall_pos", int64(c))
		gordianMeta("replay_stall_goroutine", r.paths[sid])
		gordianMetaInt("replay_stall_kind", int64(r.opKind[c]))
	}
	if n > gordianReplayMaxSkips {
		if r.done.Swap(1) == 0 {
			gordianMeta("replay_status", "abandoned")
		}
		return
	}
	gordianMetaInt("replay_skip", int64(c))
	if r.cursor.CompareAndSwap(c, c+1) && c+1 >= r.nops && r.done.Swap(1) == 0 {
		gordianMeta("replay_status", "complete-with-skips")
	}
}

// gordianReplayDiverge reports that goroutine sid did an operation of kind
// got where the schedule has another kind, and abandons the replay.
func gordianReplayDiverge(pos int32, sid uint32, got uint8) {
	r := &gordianReplay
	if r.done.Swap(1) != 0 {
		return
	}
	gordianMetaInt("replay_diverged_pos", int64(pos))
	gordianMeta("replay_diverged_goroutine", r.paths[sid])
	gordianMetaInt("replay_diverged_expected", int64(r.opKind[pos]))
	gordianMetaInt("replay_diverged_got", int64(got))
	gordianMeta("replay_status", "diverged")
}

// gordianReplaySelect runs a select the schedule forces to case choice (a
// case index, or gordianReplayDefault). The chosen case is tried without
// blocking; if it is not ready the cursor moves on (so that the partner can
// come) and the case is retried until the stall time; then the select runs
// unforced.
func gordianReplaySelect(cas0 *scase, order0 *uint16, pc0 *uintptr, nsends, nrecvs int, block bool, choice int32) (int, bool) {
	n := nsends + nrecvs
	if choice == gordianReplayFree || int(choice) >= n || (choice == gordianReplayDefault && block) {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	if choice == gordianReplayDefault {
		return -1, false
	}
	cases := (*[1 << 16]scase)(unsafe.Pointer(cas0))[:n:n]
	cs := &cases[choice]
	st := &getg().gordian
	deadline := nanotime() + gordianReplay.stallNs
	for spins := 0; ; spins++ {
		if int(choice) < nsends {
			if chansendOrig(cs.c, cs.elem, false, 0) {
				return int(choice), false
			}
		} else {
			if sel, recv := chanrecvOrig(cs.c, cs.elem, false); sel {
				return int(choice), recv
			}
		}
		if spins == 0 {
			gordianReplayDone(st)
		}
		if nanotime() > deadline || (gordianReplay.done.Load() != 0 && spins > 100) {
			return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
		}
		if spins < 50 {
			Gosched()
		} else {
			timeSleep(20 * 1000)
		}
	}
}

// gordianReplayRetry is called after the i-th failed try of a non-blocking
// operation the schedule forces to succeed: the first failure acknowledges
// (so that the partner can come); it returns false when the stall time is
// over (the operation then takes its default).
func gordianReplayRetry(st *gordianG, i int) bool {
	s := gordianReplayState(st.gid)
	if s == nil || !gordianReplay.on {
		return false
	}
	if i == 0 {
		gordianReplayDone(st)
		s.since = nanotime()
	}
	if nanotime()-s.since > gordianReplay.stallNs {
		return false
	}
	if i < 50 {
		Gosched()
	} else {
		timeSleep(20 * 1000)
	}
	return true
}
