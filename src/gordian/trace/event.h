// This file defines the on-disk trace record: the contract between the Go
// recorder (runtime/, which writes it from inside the program under test) and
// every C++ consumer (reader, happens-before engine, detectors, replay).
// docs/trace-format.md is the prose version; the two must agree.
//
// Design constraints:
// - Thread-local: each goroutine appends fixed-size records to its own chunks
//   of one MAP_SHARED memory-mapped file, so a panic, os.Exit, test timeout or
//   even kill -9 leaves every record written so far in the page cache.
// - Pre and post of a blocking operation are ONE record updated in place:
//   written at pre with tpost == 0; tpost is stored last at completion. A
//   record with tpost == 0 is an operation that never completed.
// - Crash-consistent without locks: chunks start zeroed, `kind` is written
//   last when a record is created, `tpost` last when it completes. A reader
//   stops a chunk at the first record whose kind is 0.
// - Small: 24 bytes per record, and one record covers pre and post.
//
// File layout of DIR/events.bin (little-endian):
//   FileHeader (64 bytes)
//   chunk 0, chunk 1, ...          each FileHeader::chunk_bytes long (the Go
//                                  recorder writes kRecorderChunkBytes; readers
//                                  must use the header's value)
// Chunk layout (a chunk of one goroutine, magic kChunkMagic):
//   ChunkHeader (24 bytes: the size of one record)
//   Record[kRecordsPerChunk]       until the first record with kind == 0
// A shared chunk (magic kSharedChunkMagic, gid 0) holds runs of several
// goroutines instead, so that a goroutine that records a few operations does
// not cost a whole chunk:
//   ChunkHeader, then runs: RunHeader (24 bytes), Record[RunHeader::records],
//   RunHeader, ...; slots after the last run are zero.
// A goroutine's records are the concatenation of its chunks and runs ordered
// by seq (one sequence for both), each cut at its first record with kind == 0. Side files (append-only text, one entry per line):
//   DIR/sites.txt      site id, user flag, file, line, function
//   DIR/goroutines.txt (optional) gid, parent gid, child index
//   DIR/strings.txt    id, then an escaped string (panic messages, test names)
//   DIR/meta.txt       key=value lines (command, go version, exit status...)
#pragma once

#include <cstdint>

namespace gordian::trace {

inline constexpr char kFileMagic[8] = {'G', 'O', 'R', 'D', 'T', 'R', 'C', '1'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr uint32_t kChunkBytes = 64 * 1024;  // default of C++ writers
// The Go recorder's chunk: one page. A goroutine's first records go to small
// runs of shared chunks, so one that records a few operations costs about
// 100 bytes, not a page.
inline constexpr uint32_t kRecorderChunkBytes = 4 * 1024;
inline constexpr uint32_t kChunkMagic = 0x4b484347;        // "GCHK"
inline constexpr uint32_t kSharedChunkMagic = 0x52485347;  // "GSHR"
inline constexpr uint32_t kRunMagic = 0x4e555247;          // "GRUN"

struct FileHeader {
  char magic[8];          // kFileMagic
  uint32_t version;       // kFormatVersion
  uint32_t chunk_bytes;   // size of every chunk (kChunkBytes, kRecorderChunkBytes, ...)
  uint32_t record_bytes;  // sizeof(Record) == 24
  uint32_t flags;         // FileFlags
  uint64_t start_unix_ns; // wall clock when recording started
  uint32_t pid;
  uint8_t reserved[28];   // = 0
};
static_assert(sizeof(FileHeader) == 64);

enum FileFlags : uint32_t {
  kFileTruncated = 1u << 0,  // the recorder stopped early (clock or size limit, full disk)
  kFileDiskFull = 1u << 1,   // ... because the disk had no room for the trace or a side file
};

struct ChunkHeader {
  uint32_t magic;     // kChunkMagic
  uint32_t gid;       // dense goroutine id (1 = main goroutine)
  uint32_t seq;       // 0, 1, 2, ... within the goroutine
  uint32_t reserved[3];
};
static_assert(sizeof(ChunkHeader) == 24);

// The header of a run in a shared chunk: one record slot. Its first byte
// ('G', 71) is no record kind, so a run header never reads as a record.
struct RunHeader {
  uint32_t magic;    // kRunMagic
  uint32_t gid;      // dense goroutine id
  uint32_t seq;      // in the goroutine's sequence of chunks and runs
  uint32_t records;  // record slots that follow the header
  uint32_t reserved[2];
};
static_assert(sizeof(RunHeader) == 24);  // one record slot

// Dense ids: goroutines, channels and sync objects are numbered from 1 in
// order of first appearance; 0 means "none" (for a channel: the nil channel).
// Time stamps come from one global atomic counter, incremented once per
// stamp; 0 means "not yet" (tpost) or "never".
// The kinds, what each record's fields mean and every per-kind fact
// (blocking, object class, ...) are in kinds.def; kinds.h has the lookups.
enum class Kind : uint8_t {
#define GORDIAN_KIND(Name, n, ...) Name = n,
#include "gordian/trace/kinds.def"
#undef GORDIAN_KIND
  Count_
};

enum Flags : uint8_t {
  kClosed = 1u << 0,      // channel ops: the channel was closed
  kSuccess = 1u << 1,     // TryLock / Once.Do
  kFailed = 1u << 2,      // unlock of unlocked, negative counter, failed test
  kHasDefault = 1u << 3,  // Select
  kDirSend = 1u << 4,     // SelectCase
  kDirRecv = 1u << 5,     // SelectCase
  kChosen = 1u << 6,      // SelectCase
  kTimer = 1u << 7,       // ChanRecv, SelectCase: a runtime timer sends on or closes the channel (a
                          // time.Timer/Ticker/After channel, the Done channel of a context with a deadline)
  // ProgramExit: the exiting goroutine checked every goroutine (after settling): the ones blocked
  // forever have a BlockedAtTestEnd with val 0; any other goroutine still in an operation was
  // waiting on something alive (a live timer, a context deadline).
  kExitChecked = kSuccess,
  // ChanRecv, receive SelectCase: the element type has size 0 (chan struct{}). It shares
  // kHasDefault's bit, which only Select records carry (the 8 bits are all taken).
  kZeroSize = kHasDefault,
};

inline constexpr uint32_t kDefaultCase = 0xffffffffu;
// GoStart val of the recorder's pseudo-goroutine (it holds GlobalDeadlock).
inline constexpr uint32_t kRecorderChildIndex = 0xffffffffu;

// ProgramExit aux: how the program ended.
enum class ExitHow : uint16_t {
  MainReturned = 0,
  OsExit = 1,
  FatalPanic = 2,
  FatalError = 3,      // throw, including Go's own deadlock detector
  GlobalDeadlock = 4,  // the recorder's watchdog (exit status 3)
};

// TestCall val: what the testing method does. Error/Errorf log and fail,
// Fatal/Fatalf log and fail now, Skip/Skipf log and skip now; one record
// per call, of its strongest class.
enum class TestCallClass : uint32_t {
  Log = 1,      // Log, Logf
  Fail = 2,     // Fail, Error, Errorf
  FailNow = 3,  // FailNow, Fatal, Fatalf: runtime.Goexit of the calling goroutine
  SkipNow = 4,  // SkipNow, Skip, Skipf: runtime.Goexit of the calling goroutine
};

struct Record {
  Kind kind;       // written last when the record is created
  uint8_t flags;   // Flags
  uint16_t aux;    // kind-specific (Select: number of cases, SelectCase: index)
  uint32_t site;   // sites.txt id of the source position (0 = unknown)
  uint32_t tpre;   // global stamp at the start
  uint32_t tpost;  // global stamp at completion; 0 = never completed (written last)
  uint32_t obj;    // object id (kind-specific)
  uint32_t val;    // kind-specific
};
static_assert(sizeof(Record) == 24);

inline constexpr uint32_t kRecordsPerChunk =  // for kChunkBytes chunks only
    (kChunkBytes - sizeof(ChunkHeader)) / sizeof(Record);

}  // namespace gordian::trace
