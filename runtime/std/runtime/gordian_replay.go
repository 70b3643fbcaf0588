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

	gordianReplayPollSlots = 64 // forced operations that can poll at once and be found as peers

	gordianReplayCrowd    = 256               // waiters from which a far one sleeps longer:
	gordianReplayNear     = 64                // further than this many positions from its turn
	gordianReplayPauseNs  = 5 * 1000          // further: it sleeps this per position before its turn
	gordianReplayPauseMax = 200 * 1000 * 1000 // and at most this (and a fifth of the stall time)
	gordianReplayNapNear  = 1000 * 1000       // a nearer waiter not next after the head naps this

	// A select forced to the case of a timer waits for it at most this
	// long (go test's default -timeout).
	gordianReplayTimerWaitMax = 10 * 60 * 1000 * 1000 * 1000

	// Stall windows a head goroutine that is running or runnable gets
	// before its position is skipped (one window if it is blocked or not
	// yet spawned, none counted while it sleeps in time.Sleep).
	gordianReplayBusyWindows = 5

	// What a forced non-blocking operation does after a failed try
	// (gordianReplayRetry).
	gordianRetryStop = 0 // give up: take the default
	gordianRetryTry  = 1 // try again without blocking
	gordianRetryPark = 2 // do the operation blocking: a peer polls the other side
)

// gordianReplayG is the replay state of one goroutine, indexed by gid. Only
// the goroutine itself writes n and pending; sid is written at its spawn.
type gordianReplayG struct {
	nap     atomic.Uint64 // napSeq<<1 | 1 while parked in a nap (gordian_replay_nap.go)
	napWhen int64         // the nap's end by the clock
	napG    uintptr       // the napping goroutine (a *g)
	napSeq  uint32        // naps so far
	napPos  int32         // the position the nap waits for
	sid     uint32        // schedule goroutine, gordianReplayNoSid if unknown
	n       uint32        // controlled operations done so far
	since   int64         // start of a forced non-blocking operation's retries
	pending int32         // 1 + the position released to it and not yet acknowledged, 0 none
	slot    int32         // 1 + its slot in gordianReplay.pollers while it polls a forced operation, 0 none
	epoch   uint32        // a polling non-blocking operation: the epoch read before its next try
	once    int32         // its last Once.Do: 0 must not run f, 1 ran f, gordianReplayFree unknown
	polling bool          // in gordianReplayPoll: its sleeps there are the replay's, not the program's
	calls   uint32        // TestCall records written so far (after_end lines count them)
	// Started by the runtime, not by a goroutine: a timer's function (a
	// context's deadline, time.AfterFunc). No schedule can name it, and it
	// runs free, as the timer fires when it fires; holding it until the
	// schedule's end would keep a context from ever reaching its deadline.
	byRuntime bool
	// While it polls a select forced to a case that a timer will make
	// ready: the end of that wait (gordianReplayCaseDeadline), else 0.
	// Its next positions come after the timer, not stalled before it.
	timerWait atomic.Int64
}

var gordianReplay struct {
	on      bool
	done    atomic.Uint32  // 1: the schedule is finished or abandoned (free run)
	cursor  atomic.Int32   // next position to release
	head    atomic.Uintptr // *g the current position was released to (a guintptr)
	headPos atomic.Int32
	moved   atomic.Int64 // nanotime of the last cursor move
	waiters atomic.Int32 // goroutines in gordianReplayPoll
	skips   atomic.Uint32
	busy    atomic.Uint32 // stall windows in a row the head's goroutine was running or runnable
	stallNs int64

	nops      int32
	opSid     []uint32 // per position
	opKind    []uint8
	opCh      []int32 // CHOICE: select case or Once.Do outcome, gordianReplayFree when none
	gFirst    []int32 // per sid: first index into gPos
	gCount    []int32
	gPos      []int32               // per sid, its positions in order
	sidG      []uintptr             // per sid, its goroutine (a *g, 0 before its spawn)
	sidGid    []uint32              // per sid, that goroutine's gid (a g is reused after exit)
	napTimers []*timer              // per sid, the timer of its naps (made at its first)
	paths     []string              // per sid
	gates     [3]gordianReplayGates // "p", "r" and "e" lines
	kids      []uint64              // sorted parentSid<<32 | childIndex
	kidSid    []uint32              // sid of kids[i]

	// "after_end G NTH" lines: sid<<32 | nth of a testing call held until
	// its test has ended (gordian_replay_after_end.go).
	afterEnd  [gordianFuzzMaxLines]uint64
	nAfterEnd int32

	gs unsafe.Pointer // [gordianReplayMaxG]gordianReplayG

	// Forced operations that poll a channel (gordianReplaySelect,
	// gordianReplayRetry): the channel's address | 1 for a send (0: free
	// slot), and the epoch before the poller's last try. epoch counts the
	// cursor's moves; a position is released only when every poller has
	// tried again since the last move (gordianReplayPollersCaughtUp).
	pollers   [gordianReplayPollSlots]atomic.Uintptr
	pollTried [gordianReplayPollSlots]atomic.Uint32
	epoch     atomic.Uint32
}

// gordianReplayGates are the points of one kind (panics, Cond.Wait
// relocks, test ends) that wait for a position: goroutine sid, after beginning index
// controlled operations, waits until the cursor reaches pos.
type gordianReplayGates struct {
	key    []uint64 // sid<<32 | index
	pos    []int32
	sorted bool // key is sorted (the C++ side writes the lines so)
}

const (
	gordianGatePanic   = 0 // "p" lines
	gordianGateRelock  = 1 // "r" lines
	gordianGateTestEnd = 2 // "e" lines
)

// gordianReplayControlled reports whether operations of kind k are ordered
// by a schedule. It must agree with the controlled column of
// src/gordian/trace/kinds.def (src/gordian/trace/kinds_test.cc checks it).
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
	data, ok := gordianMapFile(path)
	mapped := data // data is consumed line by line below
	if !ok {
		gordianScheduleRefuse(0, "cannot read the file "+path, nil)
	}
	r := &gordianReplay
	r.stallNs = 1000 * 1000 * 1000
	if v := gogetenv("GORDIAN_REPLAY_STALL_MS"); v != "" {
		if n, ok := gordianAtoi(v); ok && n > 0 {
			r.stallNs = int64(n) * 1000 * 1000
		}
	}
	// The grammar is docs/schedule-format.md ("Grammar"): this reader must
	// accept and refuse exactly the files ParseSchedule (schedule.cc)
	// accepts and refuses, so a replay gordian starts is one the runtime
	// runs (src/gordian/schedule/testdata/grammar/ is the shared corpus).
	// Of the values it keeps the g lines (sid = order of the g lines), the
	// gates and of each "o" line G, KIND and CHOICE (position = order of
	// the o lines); the rest it only checks.
	var perSid []int32
	nops := 0 // an upper bound of the "o" lines, to size the arrays once
	ngl := 0  // ... and of the "g" lines, to size the path table once
	for i := 0; i+1 < len(data); i++ {
		if (i == 0 || data[i-1] == '\n') && data[i+1] == ' ' {
			switch data[i] {
			case 'o':
				nops++
			case 'g':
				ngl++
			}
		}
	}
	// path -> sid, open addressing, at most half full: finding a parent was
	// a linear search over the earlier paths (50,000 goroutines under one
	// parent took 14 s to load). Every accepted g line begins "g ", so the
	// table never fills.
	tabSize := 2
	for tabSize < 2*ngl+2 {
		tabSize <<= 1
	}
	pathTab := make([]int32, tabSize)
	r.opSid = make([]uint32, 0, nops)
	r.opKind = make([]uint8, 0, nops)
	r.opCh = make([]int32, 0, nops)
	var fields [10][]byte
	lineno := 0
	header := false
	var once uint32 // a bit for each key that may appear once, set when it has
	nargs, firstArg, modeLine := 0, 0, 0
	nchain := 0 // chain lines (at most gordianFuzzMaxLines)
	for len(data) > 0 {
		lineno++
		i := 0
		nul := false
		for i < len(data) && data[i] != '\n' {
			nul = nul || data[i] == 0
			i++
		}
		line := data[:i]
		if i < len(data) {
			i++
		}
		data = data[i:]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if nul {
			// No text: the C++ side would cut a path or site there.
			gordianScheduleRefuse(lineno, "a NUL byte", line)
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if !header {
			if gordianBytesString(line) != "gordian-schedule 1" {
				gordianScheduleRefuse(lineno, "not a gordian schedule (the first line must be \"gordian-schedule 1\")", nil)
			}
			header = true
			continue
		}
		k := 0
		for k < len(line) && line[k] != ' ' {
			k++
		}
		key := gordianBytesString(line[:k])
		var rest []byte
		if k < len(line) {
			rest = line[k+1:]
		}
		v := gordianBytesString(rest)
		bit := uint32(0)
		switch key {
		case "origin":
			bit = 1
		case "expect":
			bit = 2
		case "cmd.cwd":
			bit = 4
		case "cmd.mode":
			bit = 8
		case "fatal_at":
			bit = 16
		case "cmd.gomaxprocs":
			bit = 32
		case "cmd.race":
			bit = 64
		}
		if once&bit != 0 {
			gordianScheduleRefuse(lineno, "a second line with this key", line)
		}
		once |= bit
		switch key {
		case "origin", "expect", "cmd.cwd":
			// free text, for the C++ side
		case "cmd.arg":
			// free text; which arguments gordian runs is the C++ side's
			// invocation check (this process is already running)
			if nargs == 0 {
				firstArg = lineno
			}
			nargs++
		case "cmd.mode":
			if v != "test" && v != "run" {
				gordianScheduleRefuse(lineno, "cmd.mode must be test or run", line)
			}
			modeLine = lineno
		case "fatal_at":
			if _, ok := gordianScheduleNum(v, 0x7fffffff); !ok {
				gordianScheduleRefuse(lineno, "bad number (0 to 2147483647)", line)
			}
		case "cmd.gomaxprocs":
			if _, ok := gordianScheduleNum(v, 1024); !ok {
				gordianScheduleRefuse(lineno, "bad GOMAXPROCS (0 to 1024)", line)
			}
		case "cmd.race":
			if v != "0" && v != "1" {
				gordianScheduleRefuse(lineno, "cmd.race must be 0 or 1", line)
			}
		case "g":
			if !gordianScheduleFields(rest, fields[:1], false) {
				gordianScheduleRefuse(lineno, "expected one PATH", line)
			}
			p := string(fields[0])
			if len(r.paths) == 0 && p != "1" {
				gordianScheduleRefuse(lineno, "the first goroutine must be \"1\" (main)", line)
			}
			par := uint32(gordianReplayNoSid)
			var idx uint64
			if p[0] >= '0' && p[0] <= '9' {
				// A spawn path: "1", or its parent's path, a dot and a
				// child index. Other paths ("?12", "recorder") are
				// goroutines without a stable identity: never matched.
				dot := -1
				for j := len(p) - 1; j >= 0; j-- {
					if p[j] == '.' {
						dot = j
						break
					}
				}
				if dot < 0 {
					if p != "1" {
						gordianScheduleRefuse(lineno, "a spawn path begins with 1 (main)", line)
					}
				} else {
					n, ok := gordianScheduleNum(p[dot+1:], 0xffffffff)
					if !ok {
						gordianScheduleRefuse(lineno, "bad child index (0 to 4294967295)", line)
					}
					idx = n
					par = gordianPathFind(pathTab, r.paths, p[:dot])
					if par == gordianReplayNoSid {
						gordianScheduleRefuse(lineno, "the parent's g line must come first", line)
					}
				}
			}
			if gordianPathFind(pathTab, r.paths, p) != gordianReplayNoSid {
				gordianScheduleRefuse(lineno, "a goroutine listed twice", line)
			}
			sid := uint32(len(r.paths))
			r.paths = append(r.paths, p)
			perSid = append(perSid, 0)
			gordianPathAdd(pathTab, r.paths, sid)
			if par != gordianReplayNoSid {
				r.kids = append(r.kids, uint64(par)<<32|idx)
				r.kidSid = append(r.kidSid, sid)
			}
		case "p", "r", "e":
			if !gordianScheduleFields(rest, fields[:3], false) {
				gordianScheduleRefuse(lineno, "expected G INDEX POS", line)
			}
			sid, ok := gordianScheduleNum(gordianBytesString(fields[0]), 0xffffffff)
			if !ok || sid >= uint64(len(r.paths)) {
				gordianScheduleRefuse(lineno, "bad goroutine (the number of an earlier g line)", line)
			}
			idx, ok := gordianScheduleNum(gordianBytesString(fields[1]), 0xffffffff)
			if !ok {
				gordianScheduleRefuse(lineno, "bad INDEX (0 to 4294967295)", line)
			}
			pos, ok := gordianScheduleNum(gordianBytesString(fields[2]), 0x7fffffff)
			if !ok {
				gordianScheduleRefuse(lineno, "bad POS (0 to 2147483647)", line)
			}
			gs := &r.gates[gordianGatePanic]
			if key == "r" {
				gs = &r.gates[gordianGateRelock]
			} else if key == "e" {
				gs = &r.gates[gordianGateTestEnd]
			}
			gs.key = append(gs.key, sid<<32|idx)
			gs.pos = append(gs.pos, int32(pos))
		case "chain":
			// An operation of a scheduling chain: for gordian fuzz's
			// strategy, checked and ignored here.
			if !gordianScheduleFields(rest, fields[:2], false) {
				gordianScheduleRefuse(lineno, "expected G INDEX", line)
			}
			sid, ok := gordianScheduleNum(gordianBytesString(fields[0]), 0xffffffff)
			if !ok || sid >= uint64(len(r.paths)) {
				gordianScheduleRefuse(lineno, "bad goroutine (the number of an earlier g line)", line)
			}
			if _, ok := gordianScheduleNum(gordianBytesString(fields[1]), 0xffffffff); !ok {
				gordianScheduleRefuse(lineno, "bad INDEX (0 to 4294967295)", line)
			}
			if nchain >= gordianFuzzMaxLines {
				gordianScheduleRefuse(lineno, "more than 64 chain lines", line)
			}
			nchain++
		case "after_end":
			// A testing call held until its test has ended.
			if !gordianScheduleFields(rest, fields[:2], false) {
				gordianScheduleRefuse(lineno, "expected G NTH", line)
			}
			sid, ok := gordianScheduleNum(gordianBytesString(fields[0]), 0xffffffff)
			if !ok || sid >= uint64(len(r.paths)) {
				gordianScheduleRefuse(lineno, "bad goroutine (the number of an earlier g line)", line)
			}
			nth, ok := gordianScheduleNum(gordianBytesString(fields[1]), 0xffffffff)
			if !ok || nth == 0 {
				gordianScheduleRefuse(lineno, "bad NTH (1 to 4294967295)", line)
			}
			if r.nAfterEnd >= gordianFuzzMaxLines {
				gordianScheduleRefuse(lineno, "more than 64 after_end lines", line)
			}
			r.afterEnd[r.nAfterEnd] = sid<<32 | nth
			r.nAfterEnd++
		case "prefer", "delay":
			// Directives of the free run (gordian_fuzz.go).
			prefer := key == "prefer"
			if !gordianScheduleFields(rest, fields[:3], true) {
				if prefer {
					gordianScheduleRefuse(lineno, "expected CASE WAIT_MS SITE", line)
				}
				gordianScheduleRefuse(lineno, "expected NTH WAIT_MS SITE", line)
			}
			a, ok := gordianScheduleNum(gordianBytesString(fields[0]), 0x7fffffff)
			if prefer && !ok {
				gordianScheduleRefuse(lineno, "bad CASE (0 to 2147483647)", line)
			}
			if !prefer && (!ok || a == 0) {
				gordianScheduleRefuse(lineno, "bad NTH (1 to 2147483647)", line)
			}
			wait, ok := gordianScheduleNum(gordianBytesString(fields[1]), 60000)
			if !ok {
				gordianScheduleRefuse(lineno, "bad WAIT_MS (0 to 60000)", line)
			}
			if prefer && gordianFuzz.nprefs >= gordianFuzzMaxLines {
				gordianScheduleRefuse(lineno, "more than 64 prefer lines", line)
			}
			if !prefer && gordianFuzz.ndelays >= gordianFuzzMaxLines {
				gordianScheduleRefuse(lineno, "more than 64 delay lines", line)
			}
			gordianFuzzAdd(prefer, a, wait, fields[2])
		case "o":
			f := &fields
			if !gordianScheduleFields(rest, f[:], true) {
				gordianScheduleRefuse(lineno, "expected G KIND CHOICE NAME OBJ VAL INDEX FLAGS BLOCKS SITE", line)
			}
			sid, ok := gordianScheduleNum(gordianBytesString(f[0]), 0xffffffff)
			if !ok || sid >= uint64(len(r.paths)) {
				gordianScheduleRefuse(lineno, "bad goroutine (the number of an earlier g line)", line)
			}
			kind, ok := gordianScheduleNum(gordianBytesString(f[1]), 0xffffffff)
			if !ok || kind > 0xff || !gordianReplayControlled(uint8(kind)) {
				gordianScheduleRefuse(lineno, "bad kind (the number of a controlled kind)", line)
			}
			// CHOICE: only a select is forced to a case (or its default),
			// and a Once.Do to running f or not.
			ch := int32(gordianReplayFree)
			c := gordianBytesString(f[2])
			n, isNum := gordianScheduleNum(c, 0x7fffffff)
			switch {
			case c == "-":
			case kind == gkSelect && c == "d":
				ch = gordianReplayDefault
			case kind == gkSelect && isNum, kind == gkOnceDo && (c == "0" || c == "1"):
				ch = int32(n)
			default:
				gordianScheduleRefuse(lineno, "bad choice (-; a select: d or a case; a Once.Do: 0 or 1)", line)
			}
			// f[3], NAME, is for people; OBJ, VAL, FLAGS, BLOCKS and SITE
			// are for the C++ side's checks.
			if _, ok := gordianScheduleNum(gordianBytesString(f[4]), 0xffffffff); !ok {
				gordianScheduleRefuse(lineno, "bad OBJ (0 to 4294967295)", line)
			}
			if _, ok := gordianScheduleNum(gordianBytesString(f[5]), 0xffffffff); !ok {
				gordianScheduleRefuse(lineno, "bad VAL (0 to 4294967295)", line)
			}
			idx, ok := gordianScheduleNum(gordianBytesString(f[6]), 0xffffffff)
			if !ok {
				gordianScheduleRefuse(lineno, "bad INDEX (0 to 4294967295)", line)
			}
			if _, ok := gordianScheduleNum(gordianBytesString(f[7]), 0xff); !ok {
				gordianScheduleRefuse(lineno, "bad FLAGS (0 to 255)", line)
			}
			if b := gordianBytesString(f[8]); b != "0" && b != "1" {
				gordianScheduleRefuse(lineno, "BLOCKS must be 0 or 1", line)
			}
			if idx != uint64(perSid[sid]) {
				gordianScheduleRefuse(lineno, "INDEX is not the goroutine's next index", line)
			}
			if len(r.opSid) >= 0x7fffffff {
				gordianScheduleRefuse(lineno, "more operations than positions (2147483647)", line)
			}
			r.opSid = append(r.opSid, uint32(sid))
			r.opKind = append(r.opKind, uint8(kind))
			r.opCh = append(r.opCh, ch)
			perSid[sid]++
		default:
			// Shared data: a line the readers do not know is refused (the
			// format has a version for change).
			gordianScheduleRefuse(lineno, "unknown line", line)
		}
	}
	if !header {
		gordianScheduleRefuse(0, "not a gordian schedule (no \"gordian-schedule 1\" line)", nil)
	}
	if nargs > 0 && modeLine == 0 {
		gordianScheduleRefuse(firstArg, "cmd.arg without a cmd.mode line", nil)
	}
	gordianUnmapFile(mapped) // nothing below or later points into it: kept values are copies
	gordianSortKids(r.kids, r.kidSid)
	for i := range r.gates {
		gs := &r.gates[i]
		gs.sorted = true
		for j := 1; j < len(gs.key); j++ {
			if gs.key[j-1] > gs.key[j] {
				gs.sorted = false
			}
		}
	}
	r.nops = int32(len(r.opSid))
	r.gFirst = make([]int32, len(r.paths))
	r.gCount = make([]int32, len(r.paths))
	r.gPos = make([]int32, len(r.opSid))
	r.sidG = make([]uintptr, len(r.paths))
	r.napTimers = make([]*timer, len(r.paths))
	r.sidGid = make([]uint32, len(r.paths))
	var at int32
	for s := range perSid {
		r.gFirst[s] = at
		at += perSid[s]
	}
	for pos, s := range r.opSid {
		r.gPos[r.gFirst[s]+r.gCount[s]] = int32(pos)
		r.gCount[s]++
	}
	r.gs = gordianSysAlloc(gordianReplayMaxG*unsafe.Sizeof(gordianReplayG{}), &memstats.other_sys, "gordian replay")
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

// gordianScheduleFields splits b into len(out) fields separated by single
// spaces, none empty; with rest, the last one is the rest of the line (a
// SITE may hold spaces). No allocation: one line per operation.
func gordianScheduleFields(b []byte, out [][]byte, rest bool) bool {
	for i := range out {
		last := i == len(out)-1
		j := 0
		if last && rest {
			j = len(b)
		} else {
			for j < len(b) && b[j] != ' ' {
				j++
			}
		}
		if j == 0 || (last && j < len(b)) || (!last && j == len(b)) {
			return false // an empty field, a field too many or too few
		}
		out[i] = b[:j]
		if !last {
			b = b[j+1:]
		}
	}
	return true
}

// gordianScheduleNum parses a number of the schedule grammar: ASCII
// digits, no sign, no leading zero, at most max (< 1<<34, so ten digits
// cannot overflow). Num in schedule.cc takes exactly the same texts.
func gordianScheduleNum(s string, max uint64) (uint64, bool) {
	if len(s) == 0 || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(s[i]-'0')
	}
	return n, n <= max
}

// gordianScheduleRefuse ends the program on a schedule it cannot follow:
// exit status 2, the reason on stderr and in meta.txt (replay_refused), so
// `gordian replay` reports a replay that could not start instead of a
// divergence at position 0. lineno 0: the file as a whole.
func gordianScheduleRefuse(lineno int, why string, line []byte) {
	msg := make([]byte, 0, 64+len(why)+200)
	msg = append(msg, "schedule"...)
	if lineno > 0 {
		msg = append(msg, " line "...)
		msg = gordianAppendUint(msg, uint64(lineno))
	}
	msg = append(msg, ": "...)
	msg = append(msg, why...)
	if line != nil {
		msg = append(msg, ": "...)
		for i := 0; i < len(line) && i < 200; i++ {
			c := line[i]
			if c < 0x20 || c == 0x7f {
				c = '?' // no control bytes on a terminal or in meta.txt
			}
			msg = append(msg, c)
		}
		if len(line) > 200 {
			msg = append(msg, "..."...)
		}
	}
	gordianMeta("replay_refused", gordianBytesString(msg))
	print("gordian: bad ", gordianBytesString(msg), "\n")
	exit(2)
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
func gordianReplaySpawn(newg *g, gid, parent, index uint32) {
	if !gordianReplay.on {
		return
	}
	s := gordianReplayState(gid)
	if s == nil {
		return
	}
	s.sid, s.n, s.pending, s.byRuntime = gordianReplayNoSid, 0, 0, false
	if gid == 1 {
		if len(gordianReplay.paths) > 0 && gordianReplay.paths[0] == "1" {
			s.sid = 0
			gordianReplayBind(0, gid, newg)
		}
		return
	}
	ps := gordianReplayState(parent)
	if ps == nil {
		s.byRuntime = true
		return
	}
	if ps.sid == gordianReplayNoSid {
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
		gordianReplayBind(s.sid, gid, newg)
	}
}

// gordianReplayBind notes that goroutine gid, newg, is schedule goroutine
// sid (for gordianReplayAsleep).
//
//go:nosplit
func gordianReplayBind(sid, gid uint32, newg *g) {
	gordianReplay.sidGid[sid] = gid
	atomic.Storeuintptr(&gordianReplay.sidG[sid], uintptr(unsafe.Pointer(newg)))
}

// gordianReplayAsleep reports whether the goroutine of schedule goroutine
// sid is in time.Sleep: it will come to its operation when it wakes, so the
// cursor waiting for it is no stall (a program that sleeps 200 ms before
// its scheduled Unlock, descheduled for most of a second on a loaded
// machine, had that Unlock skipped). Racy by design, as the stall policy.
func gordianReplayAsleep(sid uint32) bool {
	gp := gordianReplayHeadG(sid)
	return gp != nil && readgstatus(gp)&^_Gscan == _Gwaiting && gp.waitreason == waitReasonSleep
}

// gordianReplayWaitsForTimer reports whether the goroutine of schedule
// goroutine sid polls a select forced to a case that a timer will make
// ready (time.After, a context's deadline): its next operation comes once
// the timer has fired and the select has taken the case, so its position
// is not a stall to skip (the select gives up at the end of the wait).
func gordianReplayWaitsForTimer(sid uint32, now int64) bool {
	gid := gordianReplay.sidGid[sid]
	if gid == 0 {
		return false
	}
	s := gordianReplayState(gid)
	return s != nil && s.sid == sid && s.timerWait.Load() > now
}

// gordianReplayHeadG is the goroutine of schedule goroutine sid, nil if it
// is not spawned yet, has exited, or waits in gordianReplayPoll (its sleeps
// there are the replay's, not the program's, and it is not on its way to
// an operation).
func gordianReplayHeadG(sid uint32) *g {
	r := &gordianReplay
	gp := (*g)(unsafe.Pointer(atomic.Loaduintptr(&r.sidG[sid])))
	if gp == nil || gp.gordian.gid != r.sidGid[sid] {
		return nil
	}
	if s := gordianReplayState(gp.gordian.gid); s != nil && s.polling {
		return nil
	}
	return gp
}

// gordianReplayBusy reports whether the goroutine of schedule goroutine sid
// is running, runnable or in a system call: on its way to its operation,
// unless it spins. On a loaded machine such a goroutine can go without a
// CPU, or wait on page faults of code it runs for the first time, for
// most of a stall window (lease_expiry_before_lock's expiry goroutine,
// just spawned or just woken, reproduced its bug 19/20 in CI under load),
// so it gets gordianReplayBusyWindows windows; a goroutine that spins
// waiting for one the schedule holds is skipped after them. Racy by
// design, as the stall policy.
func gordianReplayBusy(sid uint32) bool {
	gp := gordianReplayHeadG(sid)
	if gp == nil {
		return false
	}
	switch readgstatus(gp) &^ _Gscan {
	case _Grunnable, _Grunning, _Gsyscall:
		return true
	}
	return false
}

// gordianReplayWait is called by a controlled operation of kind at
// recorder site id site before its record is written. It returns the
// select choice the schedule wants (gordianReplayFree when none). An
// operation that the prefix does not release may then be held by a delay
// line (gordian_fuzz.go).
func gordianReplayWait(st *gordianG, kind uint8, site uint32) int32 {
	r := &gordianReplay
	if !r.on || !gordianReplayControlled(kind) {
		return gordianReplayFree
	}
	ch, released := gordianReplayPrefix(st, kind)
	if !released {
		gordianFuzzDelay(site)
	}
	return ch
}

// gordianReplayPrefix waits for the operation's position in the prefix;
// released reports whether the prefix released it (it then acknowledges).
func gordianReplayPrefix(st *gordianG, kind uint8) (choice int32, released bool) {
	r := &gordianReplay
	if r.done.Load() != 0 {
		return gordianReplayFree, false
	}
	s := gordianReplayState(st.gid)
	if s == nil || s.byRuntime {
		return gordianReplayFree, false
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
		gordianReplayPoll(s, -1) // not in the schedule: after it
		return gordianReplayFree, false
	}
	if r.opKind[pos] != kind {
		gordianReplayDiverge(pos, s.sid, kind)
		return gordianReplayFree, false
	}
	if !gordianReplayPoll(s, pos) {
		return gordianReplayFree, false
	}
	s.pending = pos + 1
	r.head.Store(uintptr(unsafe.Pointer(getg())))
	r.headPos.Store(pos)
	return r.opCh[pos], true
}

// gordianReplayDone acknowledges the goroutine's released operation. The
// hooks call it once the operation's record is complete: the goroutines it
// releases may end the program at once (a send on the closed channel
// panics), and a record left without its outcome (a receive's kClosed)
// would lose the bug the schedule showed, and its done stamp could come
// after the stamps of the operations released after it.
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

// gordianReplayPanic runs in the panic hook: the operation that panicked
// (if any) is done.
//
// A panic is not a controlled operation, but a fatal one ends the program:
// it waits until the operations that came before it in the recording
// (its "p" line in the schedule) have happened.
func gordianReplayPanic(st *gordianG) {
	gordianReplayPollEnd(st)
	gordianReplayDone(st)
	gordianReplayGate(st, gordianGatePanic)
}

// gordianReplayGate holds the current goroutine at a gate of kind which
// (a panic, a Cond.Wait's relock, a test's end) until its position, if the
// schedule has one for the goroutine at this point; it reports whether it
// had one (or the schedule is over).
func gordianReplayGate(st *gordianG, which int) bool {
	r := &gordianReplay
	if !r.on || r.done.Load() != 0 {
		return true
	}
	s := gordianReplayState(st.gid)
	if s == nil || s.sid == gordianReplayNoSid {
		return false
	}
	gs := &r.gates[which]
	key := uint64(s.sid)<<32 | uint64(s.n)
	at := -1
	if gs.sorted {
		lo, hi := 0, len(gs.key)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if gs.key[m] < key {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(gs.key) && gs.key[lo] == key {
			at = lo
		}
	} else {
		for i, k := range gs.key {
			if k == key {
				at = i
				break
			}
		}
	}
	if at < 0 {
		return false
	}
	gordianReplayPoll(s, gs.pos[at])
	return true
}

//go:linkname sync_gordianRelockWait sync.gordianRelockWait
func sync_gordianRelockWait() {
	gordianReplayGate(&getg().gordian, gordianGateRelock)
}

// gordianReplayDrain is called when a test ends or the program exits: while
// the schedule still has positions and the cursor keeps moving, it waits,
// so that scheduled operations of other goroutines are not cut off by the
// exit (a goroutine waiting for its turn is asleep, and neither the test's
// settle loop nor exit waits for it). In the recording every scheduled
// operation happened before the exit. While it waits it acknowledges a
// head that is parked in its operation (as the waiters do), so the last
// operations, a goroutine's blocked one, do not need another waiter to
// move on. It gives up when the cursor has not moved for the stall time;
// the waiters' own stall policy then applies.
func gordianReplayDrain() {
	r := &gordianReplay
	if !r.on {
		return
	}
	for spins := 0; r.done.Load() == 0; spins++ {
		if gordianReplayAckParked(r.cursor.Load()) {
			continue
		}
		if nanotime()-r.moved.Load() > r.stallNs {
			return
		}
		if spins < 50 {
			Gosched()
		} else {
			timeSleep(50 * 1000)
		}
	}
}

// gordianReplayTestEnd runs when a test's function has ended, before the
// recorder looks for the test's blocked goroutines. If the schedule places
// this test end ("e" line) it waits for its position: the operations that
// the recording had before the test ended happen before it. Otherwise
// (a schedule without "e" lines, e.g. a rewritten prefix) it drains.
func gordianReplayTestEnd(st *gordianG) {
	if !gordianReplay.on {
		return
	}
	if !gordianReplayGate(st, gordianGateTestEnd) {
		gordianReplayDrain()
	}
}

// gordianReplayAck moves the cursor past pos (if it is still there).
func gordianReplayAck(pos int32) {
	r := &gordianReplay
	if r.cursor.Load() != pos {
		return
	}
	r.epoch.Add(1) // before the move: pollers must see the new state first
	if r.cursor.CompareAndSwap(pos, pos+1) {
		r.busy.Store(0)
		r.moved.Store(nanotime())
		if pos+1 >= r.nops && r.done.Swap(1) == 0 {
			gordianMeta("replay_status", "complete")
		}
		gordianReplayWakeTurn(pos + 1)
	}
}

// gordianReplayPoll waits until the cursor is at pos (pos -1: until the
// schedule is done). It returns false when the schedule was abandoned or
// pos was skipped (the operation then runs freely).
func gordianReplayPoll(s *gordianReplayG, pos int32) bool {
	r := &gordianReplay
	r.waiters.Add(1)
	s.polling = true
	ok := gordianReplayPollLoop(s, pos)
	s.polling = false
	r.waiters.Add(-1)
	return ok
}

// gordianReplayPollLoop is gordianReplayPoll's loop. The waiter of the
// position after the head's spins and then naps briefly: it is the one that
// acknowledges a head parked inside its operation (gordianReplayAckParked)
// soonest. Every other waiter naps until the cursor reaches its position
// (gordianReplayWake ends the nap) or its nap's time is up, when it looks
// for a stall or a parked head as every waiter does.
func gordianReplayPollLoop(s *gordianReplayG, pos int32) bool {
	r := &gordianReplay
	last := int32(-1)
	for spins := 0; ; spins++ {
		if r.done.Load() != 0 {
			return false
		}
		c := r.cursor.Load()
		if c == pos && gordianReplayPollersCaughtUp() {
			return true
		}
		if pos >= 0 && c > pos {
			return false // skipped by the stall policy
		}
		if pos < 0 && gordianHoldReleased() {
			// Not in the schedule, and its test has ended: waiting for
			// the rest of the schedule would only make the goroutines
			// behind it look blocked forever to the test-end check.
			return false
		}
		if gordianReplayAckParked(c) {
			continue
		}
		if now := nanotime(); now-r.moved.Load() > r.stallNs {
			gordianReplayStall(c, now)
			continue
		}
		if c != last {
			last, spins = c, 0
		}
		if far := gordianReplayPause(pos, c); far > 0 {
			gordianReplayNap(s, pos, far)
		} else if pos > c+1 { // (c >= 0: so pos >= 0)
			gordianReplayNap(s, pos, min(gordianReplayNapNear, r.stallNs/5))
		} else if spins < 50 {
			Gosched()
		} else if spins < 200 {
			gordianReplayNap(s, pos, 20*1000)
		} else {
			gordianReplayNap(s, pos, 200*1000)
		}
	}
}

// gordianReplayPause is how long a waiter for position pos (-1: the end of
// the schedule) sleeps between polls while the cursor is at c when its turn
// is far and many goroutines wait: gordianReplayPauseNs per position ahead,
// at most gordianReplayPauseMax and a fifth of the stall time. 0 when its
// turn is near or few wait: the waiter spins, then sleeps 200 µs. Thousands of waiters each
// spinning and waking every 200 µs took the CPU from the goroutine whose
// turn it was: a schedule of 140,000 operations among 20,000 goroutines
// replayed at 3,000 operations a second. A far waiter wakes about when its
// turn comes if the replay takes gordianReplayPauseNs per operation or
// more (a replayed operation costs more than that); a faster replay waits
// for it.
func gordianReplayPause(pos, c int32) int64 {
	if pos < 0 {
		pos = gordianReplay.nops
	}
	d := int64(pos - c)
	if d <= gordianReplayNear || gordianReplay.waiters.Load() < gordianReplayCrowd {
		return 0
	}
	// Well within the stall time, so that a waiter late from its sleep on a
	// loaded machine is never taken for a stall.
	return min(d*gordianReplayPauseNs, gordianReplayPauseMax, gordianReplay.stallNs/5)
}

// gordianReplayAckParked acknowledges position c if the goroutine it was
// released to is parked inside its operation (it is queued in the channel
// or semaphore: the next operation may come).
func gordianReplayAckParked(c int32) bool {
	r := &gordianReplay
	if r.headPos.Load() != c {
		return false
	}
	h := (*g)(unsafe.Pointer(r.head.Load()))
	if h == nil || readgstatus(h)&^_Gscan != _Gwaiting || h.gordian.blocked == 0 || r.headPos.Load() != c {
		return false
	}
	gordianReplayAck(c)
	return true
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
	if gordianReplayAsleep(sid) || gordianReplayWaitsForTimer(sid, now) {
		return // the CAS above started a new stall window
	}
	if gordianReplayBusy(sid) && r.busy.Add(1) < gordianReplayBusyWindows {
		return // so did it; the goroutine may only be waiting for a CPU
	}
	r.busy.Store(0)
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
	r.epoch.Add(1)
	if r.cursor.CompareAndSwap(c, c+1) {
		if c+1 >= r.nops && r.done.Swap(1) == 0 {
			gordianMeta("replay_status", "complete-with-skips")
		}
		gordianReplayWakeTurn(c + 1)
	}
}

// gordianReplayRefuse reports that the schedule forced the default of a
// select at site (or of a non-blocking send or receive) while one of its
// cases was ready, a choice Go never makes: the operation took the ready
// case as Go does, and the replay is abandoned as diverged. So a schedule
// Go cannot produce never yields a finding as if it had been followed;
// what the run does afterwards is what Go can do.
func gordianReplayRefuse(site uint32) {
	r := &gordianReplay
	if r.done.Swap(1) != 0 {
		return
	}
	if pc := gordianSitePC(site); pc != 0 {
		file, line, _ := gordianSymbolize(pc)
		gordianMeta("replay_refused_choice", file)
		gordianMetaInt("replay_refused_choice_line", int64(line))
	}
	gordianMeta("replay_status", "diverged")
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
// unforced. While it polls, it is registered (gordianReplayPollStart): the
// next position is released only after it has tried again since the last
// move of the cursor, so an operation released later cannot take the
// partner it waits for; and a forced operation that finds it polling the
// other side of an unbuffered channel does its case blocking, so that the
// two meet (gordianReplayPeerPolls). A select the schedule does not force
// follows its site's prefer line, if any (gordian_fuzz.go).
func gordianReplaySelect(cas0 *scase, order0 *uint16, pc0 *uintptr, nsends, nrecvs int, block bool, choice int32, site uint32) (int, bool) {
	n := nsends + nrecvs
	if choice == gordianReplayFree && gordianReplay.on {
		if k, pi, ok := gordianFuzzPrefer(site); ok {
			return gordianFuzzSelect(cas0, order0, pc0, nsends, nrecvs, block, k, pi)
		}
	}
	if choice == gordianReplayFree || int(choice) >= n || (choice == gordianReplayDefault && block) {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	if choice == gordianReplayDefault {
		// Go takes the default only when no case is ready: run the select
		// without blocking and let Go choose. A ready case (a closed
		// channel, a buffered value, a waiting partner) wins as it would
		// in any run, and the replay is refused.
		casi, recv := selectgoOrig(cas0, order0, pc0, nsends, nrecvs, false)
		if casi >= 0 {
			gordianReplayRefuse(site)
		}
		return casi, recv
	}
	cases := (*[1 << 16]scase)(unsafe.Pointer(cas0))[:n:n]
	cs := &cases[choice]
	send := int(choice) < nsends
	st := &getg().gordian
	r := &gordianReplay
	deadline := gordianReplayCaseDeadline(cs.c, send, r.stallNs)
	for spins := 0; ; spins++ {
		e := r.epoch.Load()
		if send {
			if chansendOrig(cs.c, cs.elem, false, 0) {
				gordianReplayPollEnd(st)
				return int(choice), false
			}
		} else {
			if sel, recv := chanrecvOrig(cs.c, cs.elem, false); sel {
				gordianReplayPollEnd(st)
				return int(choice), recv
			}
		}
		if gordianReplayPeerPolls(cs.c, send) {
			// The partner polls the other side: wait for it in the
			// channel (the position is acknowledged once we are parked).
			gordianReplayPollEnd(st)
			if send {
				chansendOrig(cs.c, cs.elem, true, 0)
				return int(choice), false
			}
			_, recv := chanrecvOrig(cs.c, cs.elem, true)
			return int(choice), recv
		}
		if spins == 0 {
			if rs := gordianReplayState(st.gid); rs != nil && deadline-nanotime() > r.stallNs {
				rs.timerWait.Store(deadline) // cleared by gordianReplayPollEnd
			}
			gordianReplayPollStart(st, cs.c, send, e)
			gordianReplayDone(st)
		} else {
			gordianReplayPollTried(st, e)
		}
		// A schedule followed to its end still decides this select: its
		// case may need a goroutine that the schedule held (free now) or
		// a timer; an abandoned schedule decides nothing any more.
		abandoned := r.done.Load() != 0 && r.cursor.Load() < r.nops
		if nanotime() > deadline || (abandoned && spins > 100) || gordianHoldReleased() {
			gordianReplayPollEnd(st)
			return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
		}
		if spins < 50 {
			Gosched()
		} else {
			timeSleep(20 * 1000)
		}
	}
}

// gordianReplayCaseDeadline is how long a select forced to its case on c
// tries the case: the stall time, and if a timer will make the case ready
// (a time.After/Timer/Ticker channel, or the Done channel of a context
// with a deadline) until the stall time after that timer is due, at most
// gordianReplayTimerWaitMax. A schedule that has the timer fire first
// holds the select, and the goroutine whose case is ready earlier, as long
// as the program would have waited for the timer.
func gordianReplayCaseDeadline(c *hchan, send bool, stallNs int64) int64 {
	now := nanotime()
	deadline := now + stallNs
	if send || c == nil {
		return deadline
	}
	var due int64
	if t := gordianTimerOf(c); t != nil {
		due = t.when // racy read: a timer that is reset moves the wait, no harm
	} else {
		due = c.gordian.deadline
	}
	if due > now {
		deadline = min(due, now+gordianReplayTimerWaitMax) + stallNs
	}
	return deadline
}

// gordianReplayRetry is called after the i-th failed try of a non-blocking
// operation on c the schedule forces to succeed: the first failure
// acknowledges (so that the partner can come) and registers the operation
// as polling, as for a forced select. It returns gordianRetryStop when the
// stall time is over (the operation then takes its default),
// gordianRetryPark when a forced operation polls the other side of c (the
// operation is then done blocking, so that the two meet; the caller marks
// its record blocked), else gordianRetryTry. The caller calls
// gordianReplayPollEnd when it is done.
func gordianReplayRetry(st *gordianG, i int, c *hchan, send bool) int {
	s := gordianReplayState(st.gid)
	r := &gordianReplay
	if s == nil || !r.on {
		return gordianRetryStop
	}
	if gordianReplayPeerPolls(c, send) {
		gordianReplayPollEnd(st)
		return gordianRetryPark
	}
	if i == 0 {
		// The epoch of the first try is unknown: ask for one more.
		gordianReplayPollStart(st, c, send, r.epoch.Load()-1)
		gordianReplayDone(st)
		s.since = nanotime()
	} else {
		gordianReplayPollTried(st, s.epoch)
	}
	if nanotime()-s.since > r.stallNs || gordianHoldReleased() {
		gordianReplayPollEnd(st)
		return gordianRetryStop
	}
	if i < 50 {
		Gosched()
	} else {
		timeSleep(20 * 1000)
	}
	s.epoch = r.epoch.Load()
	return gordianRetryTry
}

// gordianReplayOnce remembers what the schedule says of the Once.Do the
// goroutine has just begun (its CHOICE: 1 ran f, 0 did not).
func gordianReplayOnce(st *gordianG, choice int32) {
	if !gordianReplay.on {
		return
	}
	if s := gordianReplayState(st.gid); s != nil {
		s.once = choice
	}
}

// sync_gordianOnceHold is called by a Once.Do that found its Once not
// done, before it takes the Once's mutex, i = 0, 1, 2, ... If the schedule
// says this call did not run f (another Do ran it, and maybe began later),
// it holds the call (the Do has already acknowledged its position, so the
// one that runs f can come) and returns true until the stall time is over;
// the caller retries while the Once is not done.
//
//go:linkname sync_gordianOnceHold sync.gordianOnceHold
func sync_gordianOnceHold(i int) bool {
	r := &gordianReplay
	if !r.on || r.done.Load() != 0 {
		return false
	}
	s := gordianReplayState(getg().gordian.gid)
	if s == nil || s.once != 0 {
		return false
	}
	if i == 0 {
		s.since = nanotime()
	}
	if nanotime()-s.since > r.stallNs || gordianHoldReleased() {
		return false
	}
	if i < 50 {
		Gosched()
	} else {
		timeSleep(20 * 1000)
	}
	return true
}

// gordianReplayPollStart registers the current goroutine as polling a
// forced send (or receive) on c; its try before the registration saw epoch
// e. gordianReplayPollTried records a later try, gordianReplayPollEnd
// removes it. Without a free slot it is not registered (it then polls as
// if alone).
func gordianReplayPollStart(st *gordianG, c *hchan, send bool, e uint32) {
	if !gordianReplay.on || c == nil {
		return
	}
	s := gordianReplayState(st.gid)
	if s == nil || s.slot != 0 {
		return
	}
	v := uintptr(unsafe.Pointer(c))
	if send {
		v |= 1
	}
	for i := range gordianReplay.pollers {
		if gordianReplay.pollers[i].CompareAndSwap(0, v) {
			gordianReplay.pollTried[i].Store(e)
			s.slot = int32(i) + 1
			return
		}
	}
}

func gordianReplayPollTried(st *gordianG, e uint32) {
	if !gordianReplay.on {
		return
	}
	if s := gordianReplayState(st.gid); s != nil && s.slot != 0 {
		gordianReplay.pollTried[s.slot-1].Store(e)
	}
}

func gordianReplayPollEnd(st *gordianG) {
	if !gordianReplay.on {
		return
	}
	s := gordianReplayState(st.gid)
	if s == nil {
		return
	}
	s.timerWait.Store(0)
	if s.slot == 0 {
		return
	}
	gordianReplay.pollers[s.slot-1].Store(0)
	s.slot = 0
}

// gordianReplayPollersCaughtUp reports whether every registered poller
// has tried its operation since the cursor last moved: the state the last
// released operation left (a value in the buffer, a goroutine parked in the
// channel) is then taken by the poller that was waiting for it, not by the
// operation released next.
func gordianReplayPollersCaughtUp() bool {
	r := &gordianReplay
	e := r.epoch.Load()
	for i := range r.pollers {
		if r.pollers[i].Load() != 0 && int32(r.pollTried[i].Load()-e) < 0 {
			return false
		}
	}
	return true
}

// gordianReplayPeerPolls reports whether another goroutine polls a forced
// operation on the other side of the unbuffered channel c (a receive if
// send, else a send). If so, a blocking operation on c meets it: the
// peer's next try completes it (or, if both block, the second completes
// the first).
func gordianReplayPeerPolls(c *hchan, send bool) bool {
	if c == nil || c.dataqsiz != 0 || !gordianReplay.on {
		return false
	}
	v := uintptr(unsafe.Pointer(c))
	if !send {
		v |= 1
	}
	for i := range gordianReplay.pollers {
		if gordianReplay.pollers[i].Load() == v {
			return true
		}
	}
	return false
}

// gordianPathHash is FNV-1a of a spawn path, for the path -> sid table.
func gordianPathHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// gordianPathFind returns the sid of path p, or gordianReplayNoSid. tab
// holds sid+1 per slot (0: empty) and is never more than half full.
func gordianPathFind(tab []int32, paths []string, p string) uint32 {
	mask := uint32(len(tab) - 1)
	for h := gordianPathHash(p) & mask; ; h = (h + 1) & mask {
		v := tab[h]
		if v == 0 {
			return gordianReplayNoSid
		}
		if paths[v-1] == p {
			return uint32(v - 1)
		}
	}
}

// gordianPathAdd enters paths[sid]; a repeated path keeps its first sid, as
// the linear search it replaces did.
func gordianPathAdd(tab []int32, paths []string, sid uint32) {
	mask := uint32(len(tab) - 1)
	for h := gordianPathHash(paths[sid]) & mask; ; h = (h + 1) & mask {
		v := tab[h]
		if v == 0 {
			tab[h] = int32(sid + 1)
			return
		}
		if paths[v-1] == paths[sid] {
			return
		}
	}
}

// gordianSortKids sorts kids (parentSid<<32 | childIndex), and kidSid with
// it, by heapsort: O(n log n) without allocating. The insertion sort it
// replaces was quadratic when a schedule listed many children late.
func gordianSortKids(k []uint64, s []uint32) {
	n := len(k)
	for i := n/2 - 1; i >= 0; i-- {
		gordianSiftKids(k, s, i, n)
	}
	for end := n - 1; end > 0; end-- {
		k[0], k[end] = k[end], k[0]
		s[0], s[end] = s[end], s[0]
		gordianSiftKids(k, s, 0, end)
	}
}

func gordianSiftKids(k []uint64, s []uint32, root, end int) {
	for {
		child := 2*root + 1
		if child >= end {
			return
		}
		if child+1 < end && k[child] < k[child+1] {
			child++
		}
		if k[root] >= k[child] {
			return
		}
		k[root], k[child] = k[child], k[root]
		s[root], s[child] = s[child], s[root]
		root = child
	}
}
