// Gordian fuzzing directives: the "prefer" and "delay" lines of a schedule
// (docs/schedule-format.md, "Directives of the free run"). This file is
// added to package runtime by the Gordian overlay; gordian_replay.go reads
// the lines and calls gordianFuzzAdd.
//
// Unlike the "o" lines, which order a prefix, the directives act on the
// operations that run freely (after the prefix, or all of them when the
// schedule has none), so they reach code that no recorded run executed:
//
//   - prefer CASE WAIT_MS SITE: a select at SITE that the prefix does not
//     force tries case CASE first and polls it while it is not ready (GFuzz's
//     select preference). WAIT_MS bounds the total time the preference waits
//     over the run: once spent, a select at SITE still takes CASE when it is
//     ready, and otherwise runs unforced at once, so a select in a loop does
//     not wait WAIT_MS each time.
//   - delay NTH WAIT_MS SITE: the NTH controlled operation at SITE (counted
//     over all goroutines in the order they reach it) is held before it runs
//     until the other goroutines are all blocked or asleep, or WAIT_MS has
//     passed (a PCT-style priority change point): a goroutine is slow at that
//     moment, which exposes check-then-act on values the trace does not hold
//     (len(ch), a flag read under a lock).
//
// Sites are matched by "file:line" as the trace writes them (sites.txt);
// each site id of the recorder is looked up once (gordianFuzzSiteOf).

package runtime

import (
	"internal/runtime/atomic"
	"unsafe"
)

const gordianFuzzMaxLines = 64 // prefer, delay, chain and after_end lines each (schedule.h kMaxDirectives)

var gordianFuzz struct {
	nsites int32 // distinct sites named by the directives
	file   [2 * gordianFuzzMaxLines]string
	line   [2 * gordianFuzzMaxLines]int
	count  [2 * gordianFuzzMaxLines]atomic.Uint32 // operations seen at the site (delays)

	nprefs     int32
	prefSite   [gordianFuzzMaxLines]int32
	prefCase   [gordianFuzzMaxLines]int32
	prefWaitNs [gordianFuzzMaxLines]int64
	prefSpent  [gordianFuzzMaxLines]atomic.Int64 // ns waited so far
	prefTaken  [gordianFuzzMaxLines]atomic.Uint32

	ndelays   int32
	delaySite [gordianFuzzMaxLines]int32
	delayNth  [gordianFuzzMaxLines]uint32
	delayNs   [gordianFuzzMaxLines]int64

	// Per recorder site id: 0 not looked up yet, else 1 + the directive
	// site index, or gordianFuzzNone.
	bySite unsafe.Pointer // [gordianMaxSites]atomic.Uint32
}

const (
	gordianFuzzNone    = 0xffffffff
	gordianFuzzQuietNs = 50 * 1000 * 1000
)

// gordianFuzzAdd records a prefer (a = case) or delay (a = nth) line; the
// caller has checked the fields. site is escaped as in the file.
func gordianFuzzAdd(prefer bool, a uint64, waitMs uint64, site []byte) {
	f := &gordianFuzz
	file, line := gordianFuzzSplitSite(gordianFuzzUnescape(site))
	s := int32(-1)
	for i := int32(0); i < f.nsites; i++ {
		if f.file[i] == file && f.line[i] == line {
			s = i
		}
	}
	if s < 0 {
		s = f.nsites
		f.file[s], f.line[s] = file, line
		f.nsites++
	}
	if prefer {
		f.prefSite[f.nprefs] = s
		f.prefCase[f.nprefs] = int32(a)
		f.prefWaitNs[f.nprefs] = int64(waitMs) * 1000 * 1000
		f.nprefs++
	} else {
		f.delaySite[f.ndelays] = s
		f.delayNth[f.ndelays] = uint32(a)
		f.delayNs[f.ndelays] = int64(waitMs) * 1000 * 1000
		f.ndelays++
	}
	if f.bySite == nil {
		f.bySite = gordianSysAlloc(gordianMaxSites*4, &memstats.other_sys, "gordian fuzz sites")
		if f.bySite == nil {
			print("gordian: out of memory for the fuzzing directives\n")
			exit(2)
		}
	}
}

// gordianFuzzUnescape undoes the escapes of a SITE (\\, \n, \r).
func gordianFuzzUnescape(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			i++
			switch b[i] {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			default:
				out = append(out, b[i])
			}
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

// gordianFuzzSplitSite splits "file:line"; a site without a line number
// matches nothing (line -1).
func gordianFuzzSplitSite(s string) (string, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			if n, ok := gordianAtoi(s[i+1:]); ok {
				return s[:i], n
			}
			break
		}
	}
	return s, -1
}

// gordianFuzzSiteOf returns the directive site index of recorder site id,
// or -1.
func gordianFuzzSiteOf(id uint32) int32 {
	f := &gordianFuzz
	if f.bySite == nil || id == 0 || id >= gordianMaxSites {
		return -1
	}
	slot := (*atomic.Uint32)(add(f.bySite, uintptr(id)*4))
	v := slot.Load()
	if v == 0 {
		v = gordianFuzzNone
		if pc := gordianSitePC(id); pc != 0 {
			file, line, _ := gordianSymbolize(pc)
			for i := int32(0); i < f.nsites; i++ {
				if f.line[i] == line && f.file[i] == file {
					v = uint32(i) + 1
					break
				}
			}
		}
		slot.Store(v) // a race writes the same value
	}
	if v == gordianFuzzNone {
		return -1
	}
	return int32(v - 1)
}

// gordianFuzzDelay runs before a controlled operation at recorder site id
// that the prefix does not release: if it is the NTH operation at the site
// of a delay line, the goroutine is held.
func gordianFuzzDelay(site uint32) {
	f := &gordianFuzz
	if f.ndelays == 0 {
		return
	}
	s := gordianFuzzSiteOf(site)
	if s < 0 {
		return
	}
	n := f.count[s].Add(1)
	for i := int32(0); i < f.ndelays; i++ {
		if f.delaySite[i] == s && f.delayNth[i] == n {
			start := nanotime()
			gordianFuzzHold(f.delayNs[i])
			gordianMeta("fuzz_delay", f.file[s])
			gordianMetaInt("fuzz_delay_line", int64(f.line[s]))
			gordianMetaInt("fuzz_delay_ms", (nanotime()-start)/1000000)
			return
		}
	}
}

// gordianFuzzHold sleeps until every other goroutine is blocked or asleep
// (gordianFuzzOthersIdle) for gordianFuzzQuietNs in a
// row, or waitNs has passed. The quiet time outlasts the short sleeps
// programs use to stagger goroutines (a goroutine asleep in time.Sleep
// looks blocked), so the hold lets such a goroutine run first. A sleeping
// goroutine is not "blocked" for the deadlock watchdog.
func gordianFuzzHold(waitNs int64) {
	deadline := nanotime() + waitNs
	quietSince := int64(0)
	for {
		now := nanotime()
		if now >= deadline || gordianHoldReleased() {
			return
		}
		if !gordianFuzzOthersIdle() {
			quietSince = 0
		} else if quietSince == 0 {
			quietSince = now
		} else if now-quietSince >= gordianFuzzQuietNs {
			return
		}
		timeSleep(500 * 1000)
	}
}

// gordianFuzzOthersIdle: every program goroutine but the current one is
// waiting (blocked, or asleep) or dead. Read without stopping the world:
// a wrong answer only ends a hold early or late.
func gordianFuzzOthersIdle() bool {
	me := getg()
	ptr, n := atomicAllG()
	for i := uintptr(0); i < n; i++ {
		g1 := atomicAllGIndex(ptr, i)
		if g1 == me || g1.gordian.gid == 0 {
			continue
		}
		if st := readgstatus(g1) &^ _Gscan; st != _Gwaiting && st != _Gdead {
			return false
		}
	}
	return true
}

// gordianFuzzPrefer returns the case a select at recorder site id should
// prefer, the index of its prefer line, and whether there is one.
func gordianFuzzPrefer(site uint32) (int32, int32, bool) {
	f := &gordianFuzz
	if f.nprefs == 0 {
		return 0, 0, false
	}
	s := gordianFuzzSiteOf(site)
	if s < 0 {
		return 0, 0, false
	}
	for i := int32(0); i < f.nprefs; i++ {
		if f.prefSite[i] == s {
			return f.prefCase[i], i, true
		}
	}
	return 0, 0, false
}

// gordianFuzzSelect runs a select whose preference (line pi) is case k:
// it tries case k without blocking and polls it while the preference's
// wait budget lasts, then runs the select unforced.
func gordianFuzzSelect(cas0 *scase, order0 *uint16, pc0 *uintptr, nsends, nrecvs int, block bool, k int32, pi int32) (int, bool) {
	n := nsends + nrecvs
	if int(k) >= n {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	cases := (*[1 << 16]scase)(unsafe.Pointer(cas0))[:n:n]
	cs := &cases[k]
	if cs.c == nil {
		return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
	}
	send := int(k) < nsends
	f := &gordianFuzz
	start := nanotime()
	for spins := 0; ; spins++ {
		if send {
			if chansendOrig(cs.c, cs.elem, false, 0) {
				break
			}
		} else if sel, recv := chanrecvOrig(cs.c, cs.elem, false); sel {
			f.prefSpent[pi].Add(nanotime() - start)
			gordianFuzzTaken(pi)
			return int(k), recv
		}
		now := nanotime()
		if f.prefSpent[pi].Load()+now-start > f.prefWaitNs[pi] || gordianHoldReleased() {
			f.prefSpent[pi].Add(now - start)
			return selectgoOrig(cas0, order0, pc0, nsends, nrecvs, block)
		}
		if spins < 50 {
			Gosched()
		} else {
			timeSleep(20 * 1000)
		}
	}
	f.prefSpent[pi].Add(nanotime() - start)
	gordianFuzzTaken(pi)
	return int(k), false
}

// gordianFuzzTaken notes in meta.txt the first time a preference is taken.
func gordianFuzzTaken(pi int32) {
	f := &gordianFuzz
	if f.prefTaken[pi].Swap(1) == 0 {
		s := f.prefSite[pi]
		gordianMeta("fuzz_prefer_taken", f.file[s])
		gordianMetaInt("fuzz_prefer_taken_line", int64(f.line[s]))
		gordianMetaInt("fuzz_prefer_taken_case", int64(f.prefCase[pi]))
	}
}
