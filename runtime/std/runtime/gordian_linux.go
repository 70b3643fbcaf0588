// Gordian recorder: the Linux part (files, mmap). See gordian.go.

//go:build linux && (amd64 || arm64)

package runtime

import (
	"unsafe"
)

const (
	gordianO_RDWR     = 0x2
	gordianO_WRONLY   = 0x1
	gordianO_CREAT    = 0x40
	gordianO_TRUNC    = 0x200
	gordianO_APPEND   = 0x400
	gordianO_CLOEXEC  = 0x80000
	gordianMAP_SHARED = 0x1
	gordianMAP_PRIV   = 0x2
	gordianMAP_NORES  = 0x4000
	gordianEEXIST     = 17
	gordianENOMEM     = 12
	gordianENOSPC     = 28
	gordianEDQUOT     = 122
	gordianPageSize   = 4096

	// The smallest trace reservation tried under an address-space limit
	// (64 MiB of chunks).
	gordianMinReserveChunks = (64 << 20) / gordianChunkBytes

	gordianMADV_POPULATE_WRITE = 23
	gordianMADV_DONTNEED       = 4

	// The pages of the newest part of the file that stay mapped when older
	// ones are dropped (gordianDropOldPages): 16 MiB of chunks.
	gordianKeepMappedBytes = 4 * gordianGrowChunks * gordianChunkBytes
)

func gordianGetpid() int { return getpid() }

func gordianCString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// gordianOpenTrace creates dir and its files, reserves the address range
// of the largest trace and maps the first part of events.bin.
func gordianOpenTrace(dir string, maxBytes uintptr) bool {
	// mkdir -p dir. ^uintptr(99) is AT_FDCWD (-100).
	d := gordianCString(dir)
	for i := 1; i <= len(dir); i++ {
		if i < len(dir) && dir[i] != '/' {
			continue
		}
		c := d[i]
		d[i] = 0
		_, _, e := gordianSyscall6(gordianSYS_MKDIRAT, ^uintptr(99), uintptr(unsafe.Pointer(&d[0])), 0o777, 0, 0, 0)
		d[i] = c
		if e != 0 && e != gordianEEXIST && i == len(dir) {
			gordianFail("cannot create the trace directory", dir, int(e))
			return false
		}
	}
	openf := func(name string, flags int32) int32 {
		p := gordianCString(dir + "/" + name)
		fd := open(&p[0], flags|gordianO_CREAT|gordianO_TRUNC|gordianO_CLOEXEC, 0o644)
		if fd < 0 {
			gordianFail("cannot create", dir+"/"+name, 0)
		}
		return fd
	}
	if gordian.fd = openf("events.bin", gordianO_RDWR); gordian.fd < 0 {
		return false
	}
	if gordian.sitesFd = openf("sites.txt", gordianO_WRONLY|gordianO_APPEND); gordian.sitesFd < 0 {
		return false
	}
	if gordian.stringsFd = openf("strings.txt", gordianO_WRONLY|gordianO_APPEND); gordian.stringsFd < 0 {
		return false
	}
	if gordian.metaFd = openf("meta.txt", gordianO_WRONLY|gordianO_APPEND); gordian.metaFd < 0 {
		return false
	}

	// Reserve the whole range once, so that the file is contiguous in memory
	// however it grows (a chunk is not page aligned: the header is 64 bytes).
	maxChunks := (maxBytes - gordianHeaderBytes) / gordianChunkBytes
	if maxChunks < 1 {
		maxChunks = 1
	}
	if maxChunks > 1<<31 {
		maxChunks = 1 << 31
	}
	// An address-space limit (ulimit -v, a container's) can refuse the
	// default 32 GiB reservation: halve it down to gordianMinReserveChunks
	// before giving up. A smaller reservation only caps the trace (meta.txt
	// says truncated=1 when it fills).
	var p uintptr
	var e uintptr
	for {
		gordian.maxChunks = uint32(maxChunks)
		gordian.reserve = (gordianHeaderBytes + maxChunks*gordianChunkBytes + gordianPageSize - 1) &^ (gordianPageSize - 1)
		p, _, e = gordianSyscall6(gordianSYS_MMAP, 0, gordian.reserve, _PROT_NONE,
			gordianMAP_PRIV|_MAP_ANON|gordianMAP_NORES, ^uintptr(0), 0)
		if e != gordianENOMEM || maxChunks <= gordianMinReserveChunks {
			break
		}
		maxChunks /= 2
	}
	if e != 0 {
		gordianFail("cannot reserve address space for the trace", "", int(e))
		if e == gordianENOMEM {
			print("gordian: the address-space limit (ulimit -v) is below ", gordian.reserve>>20,
				" MiB; raise it, or set GORDIAN_TRACE_MAX_MB to less than the limit\n")
		}
		return false
	}
	if uintptr(maxChunks) < (maxBytes-gordianHeaderBytes)/gordianChunkBytes {
		gordianMetaInt("trace_max_mb", int64(gordian.reserve>>20))
	}
	gordian.base = p
	gordian.fileSize.Store(gordianHeaderBytes)
	if !gordianGrow() {
		gordianFail("cannot map", dir+"/events.bin", 0)
		return false
	}
	// FileHeader (event.h).
	h := (*[64]byte)(unsafe.Pointer(gordian.base))
	copy(h[0:8], "GORDTRC1")
	w := (*[16]uint32)(unsafe.Pointer(gordian.base))
	w[2] = 1                  // version
	w[3] = gordianChunkBytes  // chunk_bytes
	w[4] = gordianRecordBytes // record_bytes
	w[5] = 0                  // flags
	sec, nsec, _ := time_now()
	ns := uint64(sec)*1000000000 + uint64(nsec)
	*(*uint64)(unsafe.Pointer(gordian.base + 24)) = ns
	w[8] = uint32(getpid())
	var nb [21]byte
	gordianStartNs = string(nb[gordianUtoa(&nb, int64(ns)):])
	return true
}

var gordianStartNs string

// gordianGrow extends events.bin by gordianGrowChunks chunks and maps the
// new part. The caller holds gordian.growLock (or is gordianOpenTrace).
func gordianGrow() bool {
	old := gordian.fileSize.Load()
	size := old + gordianGrowChunks*gordianChunkBytes
	if size > gordian.reserve {
		size = gordianHeaderBytes + uintptr(gordian.maxChunks)*gordianChunkBytes
		if size <= old {
			return false
		}
	}
	// Reserve the new part on disk before anything is written through the
	// mapping: a write into a hole that the filesystem cannot back (a
	// full disk) is a SIGBUS that kills the program. Without room, the
	// trace ends here, marked (gordianTruncate); a filesystem that cannot
	// reserve ahead (EOPNOTSUPP) only extends the file.
	_, _, e := gordianSyscall6(gordianSYS_FALLOCATE, uintptr(gordian.fd), 0, old, size-old, 0, 0)
	if e == gordianENOSPC || e == gordianEDQUOT {
		gordian.diskFull.Store(1)
		return false
	}
	if e != 0 {
		if _, _, e := gordianSyscall6(gordianSYS_FTRUNCATE, uintptr(gordian.fd), size, 0, 0, 0, 0); e != 0 {
			return false
		}
	}
	end := (size + gordianPageSize - 1) &^ (gordianPageSize - 1)
	if end > gordian.mapEnd {
		_, _, e := gordianSyscall6(gordianSYS_MMAP, gordian.base+gordian.mapEnd, end-gordian.mapEnd,
			_PROT_READ|_PROT_WRITE, gordianMAP_SHARED|_MAP_FIXED, uintptr(gordian.fd), gordian.mapEnd)
		if e != 0 {
			return false
		}
		// Fault the new pages in now, in one call, rather than one page
		// fault per goroutine later (Linux 5.14+; an error only costs speed).
		gordianSyscall6(gordianSYS_MADVISE, gordian.base+gordian.mapEnd, end-gordian.mapEnd, gordianMADV_POPULATE_WRITE, 0, 0, 0)
		gordian.mapEnd = end
	}
	gordian.fileSize.Store(size)
	gordianDropOldPages(old)
	return true
}

// gordianDropOldPages takes the file's pages before upto, but the newest
// gordianKeepMappedBytes, out of the process's memory (called under
// growLock). The chunks handed out that long ago are done or seldom
// written: a chunk is written by its goroutine alone, which has mostly
// moved on to newer ones. MADV_DONTNEED on a shared file mapping keeps
// the data (the page stays in the page cache, dirty, and is written back
// as usual); a later write or read faults it in again. Without this the
// recorded program's resident memory grew by the whole trace: 1.4 GB on a
// suite of 58M records, more than go test's own.
func gordianDropOldPages(upto uintptr) {
	if upto <= gordianKeepMappedBytes {
		return
	}
	end := (upto - gordianKeepMappedBytes) &^ (gordianPageSize - 1)
	start := gordian.dropped
	if start < gordianPageSize {
		start = gordianPageSize // the header's page
	}
	if end <= start {
		return
	}
	gordianSyscall6(gordianSYS_MADVISE, gordian.base+start, end-start, gordianMADV_DONTNEED, 0, 0, 0)
	gordian.dropped = end
}

// gordianMapFile maps the whole file at path read-only, for a reader that
// drops it with gordianUnmapFile once parsed: read into the Go heap, the
// 57 MB schedule of 700,000 operations (and the garbage of append's
// doubling) stayed resident long after schedinit.
func gordianMapFile(path string) ([]byte, bool) {
	name := gordianCString(path)
	fd := open(&name[0], 0, 0)
	if fd < 0 {
		return nil, false
	}
	const seekEnd = 2
	size, _, e := gordianSyscall6(gordianSYS_LSEEK, uintptr(fd), 0, seekEnd, 0, 0, 0)
	if e != 0 || size == 0 {
		closefd(fd)
		return nil, e == 0
	}
	p, err := mmap(nil, size, _PROT_READ, _MAP_PRIVATE, fd, 0)
	closefd(fd)
	if err != 0 {
		return nil, false
	}
	return unsafe.Slice((*byte)(p), size), true
}

// gordianUnmapFile releases what gordianMapFile mapped (b as it returned it).
func gordianUnmapFile(b []byte) {
	if cap(b) > 0 {
		munmap(unsafe.Pointer(&b[0]), uintptr(cap(b)))
	}
}
