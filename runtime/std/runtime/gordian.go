// Gordian recorder: this file is added to package runtime by the Gordian
// overlay (runtime/std in the Gordian repository; docs/trace-format.md is
// the specification of what it writes). It owns the recorder's state, the
// trace file (events.bin: one MAP_SHARED file of 4 KiB chunks; a goroutine
// writes its first records into small runs of per-P shared chunks, then into
// chunks of its own), the global stamp counter, the site and object tables
// and the text side files.
//
// Ground rules for every gordian*.go file:
//   - Recording is on only when GORDIAN_TRACE_DIR is set (gordianOn). With it
//     off, every hook returns after one predictable branch.
//   - The per-goroutine state (g.gordian) holds no Go pointers, so writing it
//     needs no write barrier and is legal on the system stack.
//   - Records live in mmap'd memory that the GC does not know about; they are
//     addressed by uintptr.
//   - Hooks that run under a channel lock are nosplit and call nothing.

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

// Record kinds and flags: src/gordian/trace/event.h.
const (
	gkGoSpawn          = 1
	gkGoStart          = 2
	gkGoEnd            = 3
	gkChanMake         = 4
	gkChanSend         = 5
	gkChanRecv         = 6
	gkChanClose        = 7
	gkSelect           = 8
	gkSelectCase       = 9
	gkMutexLock        = 10
	gkMutexUnlock      = 11
	gkMutexTryLock     = 12
	gkRWLock           = 13
	gkRWUnlock         = 14
	gkRLock            = 15
	gkRUnlock          = 16
	gkRWTryLock        = 17
	gkRWTryRLock       = 18
	gkWgAdd            = 19
	gkWgWait           = 20
	gkOnceDo           = 21
	gkCondWait         = 22
	gkCondSignal       = 23
	gkCondBroadcast    = 24
	gkPanic            = 25
	gkTestStart        = 26
	gkTestEnd          = 27
	gkBlockedAtTestEnd = 28
	gkGlobalDeadlock   = 29
	gkProgramExit      = 30
	gkTestCall         = 31
	gkCount            = 32

	gfClosed     = 1 << 0
	gfSuccess    = 1 << 1
	gfFailed     = 1 << 2
	gfHasDefault = 1 << 3
	gfDirSend    = 1 << 4
	gfDirRecv    = 1 << 5
	gfChosen     = 1 << 6
	gfTimer      = 1 << 7 // ChanRecv, SelectCase: a runtime timer sends on or closes the channel

	gfExitChecked = 1 << 1       // ProgramExit: the goroutines were checked at exit (gordian_settle.go)
	gfZeroSize    = gfHasDefault // receives: the element type has size 0 (chan struct{}); the bit only Select records use otherwise

	gordianDefaultCase = 0xffffffff
	gordianRecorderIdx = 0xffffffff // GoStart val of the recorder pseudo-goroutine

	// ProgramExit aux: how the program ended.
	gordianExitMain     = 0
	gordianExitOsExit   = 1
	gordianExitPanic    = 2
	gordianExitFatal    = 3
	gordianExitDeadlock = 4
	gordianDeadlockCode = 3 // exit status of a global deadlock
)

// File layout constants (event.h).
const (
	gordianHeaderBytes  = 64
	gordianChunkBytes   = 4 << 10 // one page
	gordianChunkHdr     = 24      // also the size of a run header: both take one record slot
	gordianRecordBytes  = 24
	gordianRecsPerChunk = (gordianChunkBytes - gordianChunkHdr) / gordianRecordBytes
	gordianChunkMagic   = 0x4b484347 // "GCHK": a chunk of one goroutine
	gordianSharedMagic  = 0x52485347 // "GSHR": a chunk of runs of several goroutines
	gordianRunMagic     = 0x4e555247 // "GRUN": a run header in a shared chunk
	gordianGrowChunks   = 1024       // the file grows 4 MiB at a time
	gordianStampLimit   = 0xffffffff - 16

	// A goroutine's first runs hold 3, 7, 15, 31 and 63 records (4 << k
	// slots of 24 bytes with the run header); its later records go to chunks
	// of its own. A goroutine that records three operations (GoStart, one
	// operation, GoEnd) costs 96 bytes instead of a 4 KiB page.
	gordianFirstRunSlots = 4
	gordianRunClasses    = 5
	gordianMaxSharedP    = 256 // Ps with a shared chunk; others use chunks of their own
)

// gordianRecord is event.h's Record.
type gordianRecord struct {
	kind  uint8
	flags uint8
	aux   uint16
	site  uint32
	tpre  uint32
	tpost uint32
	obj   uint32
	val   uint32
}

// gordianSharedChunk is a P's current shared chunk: the free slots in which
// it hands out runs. Only code running on that P (with preemption disabled)
// touches it, so it needs no lock.
type gordianSharedChunk struct {
	next uintptr // next free slot (0 = none yet)
	end  uintptr // end of the chunk's slots
	_    [48]byte
}

// gordianG is the recorder's per-goroutine state, the field g.gordian. It
// is reset when the goroutine is created and when it exits.
type gordianG struct {
	gid     uint32  // dense goroutine id; 0 = not recorded (system goroutine, g0)
	parent  uint32  // parent gid, 0 unknown
	index   uint32  // child index among the parent's spawns
	nspawn  uint32  // children spawned so far
	test    uint32  // test index this goroutine belongs to (inherited)
	cseq    uint32  // seq of the next run or chunk
	seq     uint32  // value sequence number handed over under a lock
	seq2    uint32  // second stashed number (Cond broadcast)
	stamp   uint32  // completion stamp taken under a lock (0 = none)
	flags   uint8   // ggUserSpawn, ...
	inop    uint8   // inside a recorded runtime operation: nested ones are not recorded
	inpanic uint8   // inside the panic hook
	pc      uintptr // caller pc stashed by chanrecv entry points
	lastPC  uintptr // one-entry site cache: the last lookup pc ...
	lastV   uint32  // ... and its site id<<2 | class
	startpc uintptr // goroutine function, for the GoStart site
	next    uintptr // next free record in the current run or chunk (0 = none)
	end     uintptr // end of the current run's or chunk's record area
	blocked uintptr // record of the blocking operation in progress
	open    uintptr // record completed by a panic (send on closed, ...)
}

const (
	ggUserSpawn = 1 << 0 // spawned at a user site: write GoStart/GoEnd even if it records nothing
)

// gordianOn is true when recording. It is set once in schedinit, before
// any goroutine but g0 exists, and cleared only when the trace is truncated.
var gordianOn bool

var gordian struct {
	fd        int32   // events.bin
	sitesFd   int32   // sites.txt
	stringsFd int32   // strings.txt
	metaFd    int32   // meta.txt
	base      uintptr // start of the address range reserved for events.bin
	reserve   uintptr // its size (the largest trace)
	mapEnd    uintptr // bytes of the file mapped (page aligned)
	dropped   uintptr // bytes of the file whose pages were dropped from memory (Linux, under growLock)
	fileSize  atomic.Uintptr
	maxChunks uint32
	nextChunk atomic.Uint32
	growLock  mutex
	sideLock  mutex // guards sideBuf and the order of side-file lines
	sideBuf   [4096]byte

	clock    atomic.Uint32 // the global stamp counter
	gids     atomic.Uint32
	objs     atomic.Uint32
	nsites   atomic.Uint32
	nstrings atomic.Uint32
	ntests   atomic.Uint32
	// The tests whose function has returned, one bit per test index (the
	// schedule's holds then let their goroutines go: gordianHoldReleased),
	// and the program's end (every hold lets go).
	testEnded     [gordianEndedTests / 32]atomic.Uint32
	holdsReleased atomic.Uint32
	truncated     atomic.Uint32
	diskFull      atomic.Uint32 // the trace or a side file could not get disk space
	exiting       atomic.Uint32

	roots      []string // GORDIAN_ROOTS, or nil for the default rule
	goroot     string
	deadlockNs int64
	wallEnd    int64 // GORDIAN_WALL_MS: nanotime at which gordian kills the run (0: no limit)
	// callbacksAfterWall: the watchdog passed over a callback due after
	// wallEnd (its message says so). Written with the world stopped.
	callbacksAfterWall bool
	settleNs           int64 // GORDIAN_SETTLE (gordian_settle.go)

	siteTab unsafe.Pointer // [gordianSiteTabSize]gordianSiteEntry
	sitePCs unsafe.Pointer // [gordianMaxSites]uintptr: lookup pc of each site id
	objTab  unsafe.Pointer // [gordianObjTabSize]gordianObjEntry
	objUsed unsafe.Pointer // [gordianObjTabSize]uint32: the slots in use, in order of use
	objN    atomic.Uint32  // how many of objUsed are set

	recorder gordianG // the recorder's pseudo-goroutine (GlobalDeadlock)

	shared [gordianMaxSharedP]gordianSharedChunk // each P's current shared chunk, by p.id
}

// gordianInit runs in schedinit right after the environment is known and
// before the main goroutine exists (so that it gets gid 1).
func gordianInit() {
	dir := gogetenv("GORDIAN_TRACE_DIR")
	if dir == "" {
		return
	}
	if !gordianContains(dir, "%p") {
		// Child processes (a test that runs its own binary) would truncate
		// this trace; without %p they do not inherit the variable.
		gordianUnsetenv("GORDIAN_TRACE_DIR")
	}
	dir = gordianExpandPid(dir)
	gordian.goroot = gogetenv("GOROOT")
	if gordian.goroot == "" {
		gordian.goroot = defaultGOROOT
	}
	if r := gogetenv("GORDIAN_ROOTS"); r != "" {
		gordian.roots = gordianSplit(r, ':')
	}
	gordian.deadlockNs = 1000 * 1000 * 1000
	if v := gogetenv("GORDIAN_DEADLOCK_MS"); v != "" {
		if n, ok := gordianAtoi(v); ok && n >= 0 {
			gordian.deadlockNs = int64(n) * 1000 * 1000
		}
	}
	if v := gogetenv("GORDIAN_WALL_MS"); v != "" {
		if n, ok := gordianAtoi(v); ok && n > 0 {
			gordian.wallEnd = nanotime() + int64(n)*1000*1000
		}
	}
	gordian.settleNs = gordianSettleDefault
	if v := gogetenv("GORDIAN_SETTLE"); v != "" {
		if n, ok := gordianParseDuration(v); ok {
			gordian.settleNs = n
		} else {
			print("gordian: GORDIAN_SETTLE=", v, " is not a duration (like 500ms, 2s, 0); using 1s\n")
		}
	}
	maxMB := uintptr(32768)
	if v := gogetenv("GORDIAN_TRACE_MAX_MB"); v != "" {
		if n, ok := gordianAtoi(v); ok && n > 0 {
			maxMB = uintptr(n)
		}
	}
	if !gordianOpenTrace(dir, maxMB<<20) {
		exit(2)
	}
	gordian.siteTab = gordianSysAlloc(gordianSiteTabSize*unsafe.Sizeof(gordianSiteEntry{}), &memstats.other_sys, "gordian sites")
	gordian.sitePCs = gordianSysAlloc(gordianMaxSites*goarchPtrSize, &memstats.other_sys, "gordian site pcs")
	gordian.objTab = gordianSysAlloc(gordianObjTabSize*unsafe.Sizeof(gordianObjEntry{}), &memstats.other_sys, "gordian objects")
	gordian.objUsed = gordianSysAlloc(gordianObjTabSize*4, &memstats.other_sys, "gordian object slots")
	if gordian.siteTab == nil || gordian.sitePCs == nil || gordian.objTab == nil || gordian.objUsed == nil {
		gordianFail("out of memory for the site and object tables", "", 0)
		exit(2)
	}
	gordian.recorder.parent = 0
	gordian.recorder.index = gordianRecorderIdx

	gordianMeta("recorder", "gordian-rt 1")
	gordianMeta("format_version", "1")
	gordianMeta("go_version", buildVersion)
	gordianMeta("goos", GOOS)
	gordianMeta("goarch", GOARCH)
	gordianMetaInt("pid", int64(gordianGetpid()))
	gordianMeta("start_unix_ns", gordianStartNs)
	gordianMetaInt("argc", int64(len(argslice)))
	for i, a := range argslice {
		var kb [32]byte
		k := append(kb[:0], "arg."...)
		k = gordianAppendUint(k, uint64(i))
		gordianMeta(gordianBytesString(k), a)
	}
	gordianMeta("roots", gogetenv("GORDIAN_ROOTS"))
	gordianRaceMeta() // -race: gordian_race.go
	gordianOn = true
	gordianReplayInit() // replay: gordian_replay.go
}

const goarchPtrSize = unsafe.Sizeof(uintptr(0))

// gordianFail prints why recording cannot start.
func gordianFail(what, path string, errno int) {
	print("gordian: cannot record: ", what)
	if path != "" {
		print(" ", path)
	}
	if errno != 0 {
		print(" (errno ", errno, ")")
	}
	print("\n")
}

func gordianExpandPid(dir string) string {
	for i := 0; i+1 < len(dir); i++ {
		if dir[i] == '%' && dir[i+1] == 'p' {
			var b [20]byte
			n := gordianAppendUint(b[:0], uint64(gordianGetpid()))
			return dir[:i] + string(n) + gordianExpandPid(dir[i+2:])
		}
	}
	return dir
}

// gordianUnsetenv removes key from the environment the program sees
// (os.Environ, os/exec), before any package is initialized.
func gordianUnsetenv(key string) {
	kept := envs[:0:0]
	for _, e := range envs {
		if !(len(e) > len(key) && e[len(key)] == '=' && e[:len(key)] == key) {
			kept = append(kept, e)
		}
	}
	envs = kept
}

func gordianSplit(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == sep {
			if i > start {
				p := s[start:i]
				for len(p) > 1 && p[len(p)-1] == '/' {
					p = p[:len(p)-1]
				}
				out = append(out, p)
			}
			start = i + 1
		}
	}
	return out
}

// ---- stamps -------------------------------------------------------------

// gordianStamp returns the next global stamp.
//
//go:nosplit
func gordianStamp() uint32 {
	t := gordian.clock.Add(1)
	if t >= gordianStampLimit {
		gordianOn = false
		gordian.truncated.Store(1)
	}
	return t
}

// gordianStampPair returns two consecutive stamps from one atomic add: the
// start and the end of an operation that completed without waiting.
//
//go:nosplit
func gordianStampPair() (uint32, uint32) {
	t := gordian.clock.Add(2)
	if t >= gordianStampLimit {
		gordianOn = false
		gordian.truncated.Store(1)
	}
	return t - 1, t
}

// Blocking operations get their start stamp lazily: the record is written
// with tpre == 0, gordianWaitStamp stamps it when the operation is about to
// wait, and gordianDoneStamp stamps the completion, taking both stamps from
// one atomic add if the operation never had to wait. One add instead of two
// for every operation that does not block (an atomic add costs 5 to 30 ns).

// gordianWaitStamp gives record p its start stamp (if it has none).
//
//go:nosplit
func gordianWaitStamp(p uintptr) {
	if p == 0 {
		return
	}
	r := (*gordianRecord)(unsafe.Pointer(p))
	if r.tpre == 0 {
		r.tpre = gordianStamp()
	}
}

// gordianDoneStamp returns the completion stamp of record p's operation,
// setting its start stamp first if it has none.
//
//go:nosplit
func gordianDoneStamp(p uintptr) uint32 {
	r := (*gordianRecord)(unsafe.Pointer(p))
	if r.tpre == 0 {
		a, b := gordianStampPair()
		r.tpre = a
		return b
	}
	return gordianStamp()
}

// gordianSelfStamp is the completion stamp of the operation the current
// goroutine is doing (its open record), taken by the hooks under a lock.
//
//go:nosplit
func gordianSelfStamp(st *gordianG) uint32 {
	if st.open != 0 {
		return gordianDoneStamp(st.open)
	}
	return gordianStamp()
}

// ---- chunks, runs and records ----------------------------------------------

// gordianAlloc returns room for n consecutive records in st's current run or
// chunk (starting a new one when needed), or 0 when the trace is full. A
// goroutine's first run starts with its GoStart record.
func gordianAlloc(st *gordianG, n uintptr) uintptr {
	if st.next != 0 && st.next+n*gordianRecordBytes <= st.end {
		p := st.next
		st.next = p + n*gordianRecordBytes
		return p
	}
	return gordianAllocSlow(st, n)
}

func gordianAllocSlow(st *gordianG, n uintptr) uintptr {
	if n > gordianRecsPerChunk-1 {
		return 0
	}
	first := st.next == 0 && st.cseq == 0
	need := n
	if first && st.gid != 1 {
		need++
	}
	// The run class follows the number of runs so far (capacity doubles),
	// skipping classes too small for need (a select's records stay together).
	var recs uintptr
	for k := st.cseq; k < gordianRunClasses; k++ {
		if c := uintptr(gordianFirstRunSlots<<k) - 1; c >= need {
			recs = c
			break
		}
	}
	var c uintptr
	if recs != 0 {
		var full bool
		c, full = gordianNewRun(st.gid, st.cseq, recs)
		if full {
			return 0
		}
	}
	if c == 0 {
		c = gordianNewChunk(gordianChunkMagic, st.gid, st.cseq)
		if c == 0 {
			return 0
		}
		recs = gordianRecsPerChunk
	}
	st.cseq++
	st.next = c + gordianChunkHdr
	st.end = st.next + recs*gordianRecordBytes
	if first && st.gid != 1 {
		var site uint32
		if st.startpc != 0 {
			site, _ = gordianSite(st.startpc)
		}
		p := st.next
		st.next += gordianRecordBytes
		t := gordianStamp()
		gordianPut(p, gkGoStart, 0, 0, site, t, t, st.parent, st.index)
	}
	p := st.next
	st.next = p + n*gordianRecordBytes
	return p
}

// gordianNewRun hands out a run of recs records (and its header) in the
// current P's shared chunk, starting a new shared chunk when the current one
// has no room. It returns 0 when the P has no shared chunk (no P, or too
// many Ps: the caller takes a chunk of its own), and full when the trace is
// full.
func gordianNewRun(gid, seq uint32, recs uintptr) (r uintptr, full bool) {
	mp := acquirem() // the P's shared chunk is touched only with the P held
	sh := gordianPShared(mp)
	if sh == nil {
		releasem(mp)
		return 0, false
	}
	if sh.next == 0 || sh.next+(recs+1)*gordianRecordBytes > sh.end {
		c := gordianNewChunk(gordianSharedMagic, 0, 0)
		if c == 0 {
			releasem(mp)
			return 0, true
		}
		sh.next = c + gordianChunkHdr
		sh.end = sh.next + gordianRecsPerChunk*gordianRecordBytes
	}
	r = gordianCarveRun(sh, gid, seq, recs)
	releasem(mp)
	return r, false
}

// gordianPShared is the shared chunk of mp's P, or nil. The caller has
// acquired mp.
//
//go:nosplit
func gordianPShared(mp *m) *gordianSharedChunk {
	pp := mp.p.ptr()
	if pp == nil || pp.id < 0 || pp.id >= gordianMaxSharedP {
		return nil
	}
	return &gordian.shared[pp.id]
}

// gordianCarveRun takes a run of recs records from sh, which has room for
// it, and writes the run header: seq and size first, magic and gid last
// (plain stores, see gordianPut). No lock, no allocation.
//
//go:nosplit
func gordianCarveRun(sh *gordianSharedChunk, gid, seq uint32, recs uintptr) uintptr {
	r := sh.next
	sh.next = r + (recs+1)*gordianRecordBytes
	h := (*[6]uint32)(unsafe.Pointer(r))
	h[2] = seq
	h[3] = uint32(recs)
	*(*uint64)(unsafe.Pointer(r)) = gordianRunMagic | uint64(gid)<<32
	return r
}

// gordianNewChunk hands out the next chunk of the file, growing and mapping
// the file as needed, and writes its header (magic last). It returns the
// chunk's address.
func gordianNewChunk(magic, gid, seq uint32) uintptr {
	i := gordian.nextChunk.Add(1) - 1
	if i >= gordian.maxChunks {
		gordianTruncate()
		return 0
	}
	need := gordianHeaderBytes + uintptr(i+1)*gordianChunkBytes
	for gordian.fileSize.Load() < need {
		lock(&gordian.growLock)
		ok := true
		if gordian.fileSize.Load() < need {
			ok = gordianGrow()
		}
		unlock(&gordian.growLock)
		if !ok {
			gordianTruncate()
			return 0
		}
	}
	c := gordian.base + gordianHeaderBytes + uintptr(i)*gordianChunkBytes
	h := (*[6]uint32)(unsafe.Pointer(c))
	h[1] = gid
	h[2] = seq
	atomic.Store(&h[0], magic)
	return c
}

// gordianTruncate stops recording because the trace is full: its size
// cap, the clock's limit, or a full disk (gordian.diskFull). The header
// page says so (it is on disk from the start); meta.txt too, when it can.
func gordianTruncate() {
	gordianOn = false
	if gordian.truncated.Swap(1) == 0 {
		hdr := (*[16]uint32)(unsafe.Pointer(gordian.base))
		fl := uint32(1) // FileHeader.flags |= kFileTruncated
		if gordian.diskFull.Load() != 0 {
			fl |= 2 // kFileDiskFull
		}
		atomic.Or(&hdr[5], fl)
		gordianMeta("truncated", "1")
		if gordian.diskFull.Load() != 0 {
			gordianMeta("truncated_reason", "disk full")
		}
	}
}

// gordianPut writes a whole record, kind last (the first 8 bytes in one
// store), so that a reader never sees a half-written record.
//
// The stores are plain: the compiler keeps stores in program order (they are
// chained through one memory state), and crash safety needs nothing more,
// because a killed thread's executed stores all reach the page cache
// whatever their order of visibility to other cores. In-process readers
// (the watchdog, the test-end scan) tolerate races. An atomic store here
// costs a full barrier (XCHG on amd64): about 40 ns on slow machines.
//
//go:nosplit
func gordianPut(p uintptr, kind, flags uint8, aux uint16, site, tpre, tpost, obj, val uint32) {
	r := (*gordianRecord)(unsafe.Pointer(p))
	r.tpre = tpre
	r.tpost = tpost
	r.obj = obj
	r.val = val
	*(*uint64)(unsafe.Pointer(p)) = uint64(kind) | uint64(flags)<<8 | uint64(aux)<<16 | uint64(site)<<32
}

// gordianComplete finishes a blocking record in place: val and flags
// first, tpost last (plain stores, see gordianPut).
//
//go:nosplit
func gordianComplete(p uintptr, flags uint8, val, tpost uint32) {
	r := (*gordianRecord)(unsafe.Pointer(p))
	r.val = val
	if flags != 0 {
		r.flags |= flags
	}
	r.tpost = tpost
}

// gordianOne writes a non-blocking record (tpre == tpost) for gp.
func gordianOne(st *gordianG, kind, flags uint8, aux uint16, site, obj, val uint32) uintptr {
	p := gordianAlloc(st, 1)
	if p == 0 {
		return 0
	}
	t := gordianStamp()
	gordianPut(p, kind, flags, aux, site, t, t, obj, val)
	return p
}

// gordianBlockingKind reports whether records of kind k have tpre < tpost.
func gordianBlockingKind(k uint8) bool {
	switch k {
	case gkChanSend, gkChanRecv, gkSelect, gkMutexLock, gkRWLock, gkRLock,
		gkWgWait, gkOnceDo, gkCondWait:
		return true
	}
	return false
}

// ---- sites ---------------------------------------------------------------

// A site is a code address of an operation (the return address minus one,
// or a function entry). Each distinct address gets a dense id the first time
// it is seen; its line in sites.txt is written then.
const (
	gordianSiteTabBits = 17
	gordianSiteTabSize = 1 << gordianSiteTabBits
	gordianMaxSites    = gordianSiteTabSize / 2

	gsUser     = 1 << 0 // user code (GORDIAN_ROOTS)
	gsInternal = 1 << 1 // runtime, sync, internal/sync: its mutex operations are implied
)

type gordianSiteEntry struct {
	pc uintptr
	v  atomic.Uint32 // id<<2 | class; 0 while being resolved
	_  uint32
}

// gordianSiteOf is gordianSite with st's one-entry cache in front (a loop
// that repeats one operation looks its site up once).
//
//go:nosplit
func gordianSiteOf(st *gordianG, pc uintptr) (uint32, uint8) {
	if pc == st.lastPC && pc != 0 {
		return st.lastV >> 2, uint8(st.lastV & 3)
	}
	return gordianSiteMiss(st, pc)
}

func gordianSiteMiss(st *gordianG, pc uintptr) (uint32, uint8) {
	id, cls := gordianSite(pc)
	st.lastPC, st.lastV = pc, id<<2|uint32(cls)
	return id, cls
}

// gordianSite returns the site id and class of pc (0, 0 when unknown).
func gordianSite(pc uintptr) (uint32, uint8) {
	if pc == 0 || gordian.siteTab == nil {
		return 0, 0
	}
	tab := (*[gordianSiteTabSize]gordianSiteEntry)(gordian.siteTab)
	h := uintptr((uint64(pc) * 0x9E3779B97F4A7C15) >> (64 - gordianSiteTabBits))
	for probes := 0; probes < gordianSiteTabSize; probes++ {
		e := &tab[h]
		k := atomic.Loaduintptr(&e.pc)
		if k == pc {
			for {
				v := e.v.Load()
				if v != 0 {
					return v >> 2, uint8(v & 3)
				}
				osyield()
			}
		}
		if k == 0 {
			// No preemption between claiming the slot and publishing it:
			// others spin on the slot, and a preempted owner could starve
			// them of Ps (a livelock with GOMAXPROCS spinners).
			mp := acquirem()
			if atomic.Casuintptr(&e.pc, 0, pc) {
				id, cls := gordianResolveSite(pc)
				e.v.Store(id<<2 | uint32(cls))
				releasem(mp)
				return id, cls
			}
			releasem(mp)
			continue // lost the race for this slot: look again
		}
		h = (h + 1) & (gordianSiteTabSize - 1)
	}
	return 0, 0
}

// gordianResolveSite symbolizes pc once and writes its sites.txt line.
func gordianResolveSite(pc uintptr) (uint32, uint8) {
	id := gordian.nsites.Add(1)
	if id >= gordianMaxSites {
		return 0, 0 // id 0: unknown site (the table is full)
	}
	(*[gordianMaxSites]uintptr)(gordian.sitePCs)[id] = pc
	file, line, fn := gordianSymbolize(pc)
	var cls uint8
	if gordianIsUserFile(file) {
		cls |= gsUser
	}
	if gordianHasPrefix(fn, "runtime.") || gordianHasPrefix(fn, "sync.") ||
		gordianHasPrefix(fn, "internal/sync.") {
		cls |= gsInternal
	}
	lock(&gordian.sideLock)
	b := gordian.sideBuf[:0]
	b = gordianAppendUint(b, uint64(id))
	b = append(b, '\t')
	if cls&gsUser != 0 {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	b = append(b, '\t')
	b = gordianAppendField(b, file, 2048)
	b = append(b, '\t')
	b = gordianAppendUint(b, uint64(line))
	b = append(b, '\t')
	b = gordianAppendField(b, fn, 1900)
	b = append(b, '\n')
	gordianWriteAll(gordian.sitesFd, b)
	unlock(&gordian.sideLock)
	return id, cls
}

// gordianSymbolize returns the innermost (inlining-aware) file, line and
// function of pc.
func gordianSymbolize(pc uintptr) (string, int, string) {
	f := findfunc(pc)
	if !f.valid() {
		return "?", 0, "?"
	}
	u, uf := newInlineUnwinder(f, pc)
	file, line := u.fileLine(uf)
	return file, line, u.srcFunc(uf).name()
}

// gordianSitePC returns the lookup pc of site id (for messages).
func gordianSitePC(id uint32) uintptr {
	if id == 0 || id >= gordianMaxSites || gordian.sitePCs == nil {
		return 0
	}
	return (*[gordianMaxSites]uintptr)(gordian.sitePCs)[id]
}

// gordianIsUserFile applies GORDIAN_ROOTS (or, without it, "not GOROOT, not
// the module cache, not vendor") to a file path.
func gordianIsUserFile(file string) bool {
	if file == "" || file[0] == '?' || file[0] == '<' {
		return false
	}
	if gordian.roots != nil {
		for _, r := range gordian.roots {
			if gordianHasPrefix(file, r) && (len(file) == len(r) || file[len(r)] == '/') {
				return true
			}
		}
		return false
	}
	if gordianHasPrefix(file, "$GOROOT/") {
		return false
	}
	if g := gordian.goroot; g != "" && gordianHasPrefix(file, g) && len(file) > len(g) && file[len(g)] == '/' {
		return false
	}
	return !gordianContains(file, "/pkg/mod/") && !gordianContains(file, "/vendor/")
}

func gordianHasPrefix(s, p string) bool {
	return len(s) >= len(p) && s[:len(p)] == p
}

func gordianContains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// ---- objects ---------------------------------------------------------------

// Sync objects (Mutex, RWMutex, WaitGroup, Once, Cond) get dense ids through
// an address table: lock-free open addressing, entries are never removed. An
// object enters the table the first time a user-site operation uses it, so
// presence in the table is the object's "user" mark. When a GC finds the
// heap object at an address dead (gordianGCMarked), its entry is retired,
// so that a new object the allocator puts at the same address gets a new
// id: two mutexes of two tests' sessions are two objects, never one lock
// that both take in different orders. A new object of another class gets a
// new id too.
const (
	gordianObjTabBits = 21
	gordianObjTabSize = 1 << gordianObjTabBits
	gordianObjRetired = 15 // the class of a retired entry: matches no class
)

type gordianObjEntry struct {
	addr uintptr
	v    atomic.Uint32 // id<<4 | class; 0 while being inserted
	_    uint32
}

// gordianObjID returns the id of the sync object at addr with class cls
// (1..15). With insert false it only looks (0 = not a user object).
func gordianObjID(addr unsafe.Pointer, cls uint32, insert bool) uint32 {
	a := uintptr(addr)
	if a == 0 {
		return 0
	}
	tab := (*[gordianObjTabSize]gordianObjEntry)(gordian.objTab)
	h := uintptr((uint64(a) * 0x9E3779B97F4A7C15) >> (64 - gordianObjTabBits))
	for probes := 0; probes < gordianObjTabSize/2; probes++ {
		e := &tab[h]
		k := atomic.Loaduintptr(&e.addr)
		if k == a {
			for {
				v := e.v.Load()
				if v == 0 {
					osyield()
					continue
				}
				if v&15 == cls {
					return v >> 4
				}
				if !insert {
					return 0
				}
				id := gordian.objs.Add(1)
				if e.v.CompareAndSwap(v, id<<4|cls) {
					return id
				}
			}
		}
		if k == 0 {
			if !insert {
				return 0
			}
			mp := acquirem() // see gordianSite; also keeps a GC out until the slot is listed
			if atomic.Casuintptr(&e.addr, 0, a) {
				id := gordian.objs.Add(1)
				e.v.Store(id<<4 | cls)
				n := gordian.objN.Add(1) - 1
				*(*uint32)(add(gordian.objUsed, uintptr(n)*4)) = uint32(h)
				releasem(mp)
				return id
			}
			releasem(mp)
			continue
		}
		h = (h + 1) & (gordianObjTabSize - 1)
	}
	return 0
}

// gordianEndedTests bounds the test indices gordianHoldReleased tells
// apart; the goroutines of a test with a larger index are let go when any
// test past the bound ends.
const gordianEndedTests = 1 << 16

// gordianReleaseHolds marks test idx ended (idx 0: the program is ending):
// the schedule no longer holds its goroutines (gordianHoldReleased).
func gordianReleaseHolds(idx uint32) {
	if idx == 0 || idx >= gordianEndedTests {
		gordian.holdsReleased.Store(1)
		return
	}
	gordian.testEnded[idx/32].Or(1 << (idx % 32))
}

// gordianHoldReleased reports whether the current goroutine's test has
// ended (or the program is ending). A schedule holds goroutines back (a
// fuzzing delay or select preference, a forced select or non-blocking
// operation polling for its partner, a Once.Do held for another): once
// the test has returned, a hold only makes goroutines look blocked forever
// to the test-end check when it is the schedule that stops them ("Lock
// blocked forever" behind a goroutine held in its critical section). So
// every hold lets go when its goroutine's test ends, before that check
// settles.
func gordianHoldReleased() bool {
	if gordian.holdsReleased.Load() != 0 {
		return true
	}
	t := getg().gordian.test
	return t != 0 && t < gordianEndedTests && gordian.testEnded[t/32].Load()&(1<<(t%32)) != 0
}

// gordianGCMarked runs at the end of each GC's mark phase, with the world
// stopped, before the sweep frees anything (mgc.go, gcMarkTermination).
// An address of the object table whose heap object the GC did not mark is
// garbage, and the allocator may hand it out again: its entry is retired,
// so that the next user operation at that address gets a new id. Addresses
// outside the heap (globals) stay. So do the objects with a finalizer: a
// finalizer resurrects an unmarked object in the sweep, and its mutex must
// keep its id.
func gordianGCMarked() {
	if !gordianOn || gordian.objTab == nil {
		return
	}
	tab := (*[gordianObjTabSize]gordianObjEntry)(gordian.objTab)
	n := gordian.objN.Load()
	for i := uint32(0); i < n; i++ {
		e := &tab[*(*uint32)(add(gordian.objUsed, uintptr(i)*4))]
		v := e.v.Load()
		if v == 0 || v&15 == gordianObjRetired {
			continue
		}
		s := spanOfHeap(e.addr)
		if s == nil || (s.specials != nil && gordianHasFinalizer(s, e.addr)) {
			continue
		}
		if !s.markBitsForIndex(s.objIndex(e.addr)).isMarked() {
			e.v.Store(v&^15 | gordianObjRetired)
		}
	}
}

// gordianHasFinalizer reports whether the heap object holding addr has a
// finalizer: only such an object comes back after the GC found it unmarked
// (the sweep queues its finalizer, which gets the object; what it points to
// the GC marked). The other objects of its span, and objects with other
// specials (a memory profile sample, a weak handle, a cleanup), are garbage
// like any other: a span of yamux's Streams next to one with a finalizer
// kept every dead Stream's mutex id, and a sampled allocation kept its own,
// and the next test's objects at those addresses took them over.
func gordianHasFinalizer(s *mspan, addr uintptr) bool {
	start := s.objIndex(addr) * s.elemsize
	for sp := s.specials; sp != nil; sp = sp.next {
		off := uintptr(sp.offset)
		if sp.kind == _KindSpecialFinalizer && off >= start && off < start+s.elemsize {
			return true
		}
	}
	return false
}

// ---- strings and meta ------------------------------------------------------

// gordianString interns nothing: it writes s to strings.txt under a new id.
func gordianString(s string) uint32 {
	if !gordianOn && gordian.stringsFd == 0 {
		return 0
	}
	id := gordian.nstrings.Add(1)
	lock(&gordian.sideLock)
	b := gordian.sideBuf[:0]
	b = gordianAppendUint(b, uint64(id))
	b = append(b, '\t')
	b = gordianAppendQuoted(b, s, len(gordian.sideBuf)-64)
	b = append(b, '\n')
	gordianWriteAll(gordian.stringsFd, b)
	unlock(&gordian.sideLock)
	return id
}

// gordianMeta appends key=value to meta.txt. It takes no lock and does not
// allocate (one write(2) per line, O_APPEND), so it is safe on fatal paths.
func gordianMeta(key, value string) {
	if gordian.metaFd <= 0 {
		return
	}
	var buf [1024]byte
	n := 0
	for i := 0; i < len(key) && n < 100; i++ {
		buf[n] = key[i]
		n++
	}
	buf[n] = '='
	n++
	for i := 0; i < len(value) && n < len(buf)-1; i++ {
		c := value[i]
		if c == '\n' || c == '\r' {
			c = ' '
		}
		buf[n] = c
		n++
	}
	buf[n] = '\n'
	n++
	gordianWriteAll(gordian.metaFd, buf[:n])
}

// gordianMetaInt appends key=v to meta.txt (fatal-path safe).
func gordianMetaInt(key string, v int64) {
	var digits [21]byte
	i := gordianUtoa(&digits, v)
	gordianMeta(key, gordianBytesString(digits[i:]))
}

// gordianUtoa formats v right-aligned in buf and returns its first index.
func gordianUtoa(buf *[21]byte, v int64) int {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return i
}

// gordianBytesString views b as a string without copying (b must outlive
// the string's use).
func gordianBytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return *(*string)(unsafe.Pointer(&b))
}

// gordianAtoi parses a non-negative decimal number.
func gordianAtoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// gordianWriteAll writes b to a side file (meta.txt, sites.txt,
// strings.txt). A side file that cannot be written whole (a full disk) would
// leave records whose sites or strings are lost: the trace ends there.
func gordianWriteAll(fd int32, b []byte) {
	for len(b) > 0 {
		n := write(uintptr(fd), unsafe.Pointer(&b[0]), int32(len(b)))
		if n <= 0 {
			if gordian.base != 0 && gordian.truncated.Load() == 0 {
				gordian.diskFull.Store(1)
				gordianTruncate()
			}
			return
		}
		b = b[n:]
	}
}

func gordianAppendUint(b []byte, v uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, tmp[i:]...)
}

// gordianAppendField appends s with tabs and newlines replaced by spaces,
// cut at max bytes.
func gordianAppendField(b []byte, s string, max int) []byte {
	if len(s) > max {
		s = s[:max]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}

// gordianAppendQuoted appends s Go-quoted (ASCII escapes only), cut at max.
func gordianAppendQuoted(b []byte, s string, max int) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := len(b)
	for i := 0; i < len(s) && len(b)-start < max; i++ {
		c := s[i]
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			if c < 0x20 || c == 0x7f {
				b = append(b, '\\', 'x', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}
