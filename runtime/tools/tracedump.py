#!/usr/bin/env python3
"""Minimal independent reader of a Gordian trace directory (events.bin and
sites.txt), for debugging the recorder without the C++ tools. Prints each
goroutine's records. Usage: tracedump.py DIR [--check-partners]"""
import struct, sys, os, collections

# The names of src/gordian/trace/kinds.def, by kind number (kinds_test.cc checks).
KINDS = ["None","GoSpawn","GoStart","GoEnd","ChanMake","ChanSend","ChanRecv","ChanClose",
  "Select","SelectCase","MutexLock","MutexUnlock","MutexTryLock","RWLock","RWUnlock","RLock",
  "RUnlock","RWTryLock","RWTryRLock","WgAdd","WgWait","OnceDo","CondWait","CondSignal",
  "CondBroadcast","Panic","TestStart","TestEnd","BlockedAtTestEnd","GlobalDeadlock","ProgramExit",
  "TestCall"]

# Flag bits (event.h); bit 1 on ProgramExit is kExitChecked, on others kSuccess;
# bit 8 on ChanRecv and SelectCase is kZeroSize, on Select kHasDefault.
FLAGS = [(1, "closed"), (2, "success"), (4, "failed"), (8, "has-default"), (16, "send"),
  (32, "recv"), (64, "chosen"), (128, "timer")]

def flagnames(k, fl):
    names = [n for b, n in FLAGS if fl & b]
    if k == 30:
        names = ["checked" if n == "success" else n for n in names]
    if k in (6, 9):  # ChanRecv, SelectCase: bit 8 is kZeroSize (kHasDefault is Select's)
        names = ["zero-size" if n == "has-default" else n for n in names]
    return ",".join(names) or "-"

def read(dirname):
    data = open(os.path.join(dirname, "events.bin"), "rb").read()
    assert data[:8] == b"GORDTRC1", "bad magic"
    ver, chunk, recb, flags = struct.unpack_from("<4I", data, 8)
    per = (chunk - 24) // 24
    chunks = collections.defaultdict(list)

    def records(off, limit):
        recs = []
        for j in range(limit):
            r = struct.unpack_from("<BBHIIIII", data, off + j * 24)
            if r[0] == 0:
                break
            recs.append(r)
        return recs

    n = (len(data) - 64) // chunk
    for i in range(n):
        off = 64 + i * chunk
        magic, gid, seq = struct.unpack_from("<3I", data, off)
        if magic == 0:
            continue
        if magic == 0x52485347:  # "GSHR": runs of several goroutines
            s = 0
            while s < per:
                rmagic, gid, seq, nrec = struct.unpack_from("<4I", data, off + 24 + s * 24)
                if rmagic == 0:
                    s += 1  # free slot, or a run whose header was never written
                    continue
                assert rmagic == 0x4e555247 and s + 1 + nrec <= per, "bad run header"
                chunks[gid].append((seq, records(off + 24 + (s + 1) * 24, nrec)))
                s += 1 + nrec
            continue
        assert magic == 0x4b484347, "bad chunk magic"
        chunks[gid].append((seq, records(off + 24, per)))
    gs = {}
    for gid, cs in chunks.items():
        cs.sort()
        gs[gid] = [r for _, rs in cs for r in rs]
    sites = {}
    p = os.path.join(dirname, "sites.txt")
    if os.path.exists(p):
        for line in open(p):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 5:
                sites[int(f[0])] = "%s:%s" % (os.path.basename(f[2]), f[3])
    return flags, gs, sites

def main():
    flags, gs, sites = read(sys.argv[1])
    if "--check-partners" not in sys.argv:
        print("flags", flags)
        for gid in sorted(gs):
            print("goroutine", gid)
            for k, fl, aux, site, tpre, tpost, obj, val in gs[gid]:
                print("  %-16s fl=%-12s aux=%-5d %-18s t=%d..%d obj=%d val=%d" % (
                    KINDS[k] if k < len(KINDS) else k, flagnames(k, fl), aux, sites.get(site, site), tpre, tpost, obj, val))
    # partner check: every (chan, seq) has at most one send and one recv
    sends, recvs = collections.Counter(), collections.Counter()
    for gid, recs in gs.items():
        for i, (k, fl, aux, site, tpre, tpost, obj, val) in enumerate(recs):
            if k == 5 and val: sends[(obj, val)] += 1
            if k == 6 and val: recvs[(obj, val)] += 1
            if k == 9 and fl & 64 and val:
                (sends if fl & 16 else recvs)[(obj, val)] += 1
    dup = [x for x, c in list(sends.items()) + list(recvs.items()) if c > 1]
    print("partner check: %d sends, %d recvs, %d matched, %d duplicates" % (
        len(sends), len(recvs), len(set(sends) & set(recvs)), len(dup)))

main()
