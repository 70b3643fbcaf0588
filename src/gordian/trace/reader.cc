// This file implements ReadTrace (trace.h): it maps DIR/events.bin, checks
// the header, groups the chunks and runs (event.h) of each goroutine in seq
// order, cuts every chunk and run at its first empty record, repairs what a crash or a corrupt byte
// left behind (with a warning for each repair), derives the stable spawn-path
// goroutine ids, and loads the side files.
//
// Speed: the file is mapped, not read; the chunk headers and record kinds are
// scanned once, then the live records of each goroutine are copied with one
// memcpy per chunk or run into an array reserved up front. Nothing is allocated per
// record. A 10-million-record trace loads in a fraction of a second.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/trace/side_files.h"
#include "gordian/trace/trace.h"
#include "gordian/util/huge_pages.h"

namespace gordian::trace {
namespace {

// Upper bound on dense goroutine ids, far above any real program, so that a
// corrupt gid cannot make the reader allocate gigabytes.
constexpr uint32_t kMaxGid = 1u << 26;
// At most this many warnings of one family are kept; the rest are counted.
constexpr size_t kMaxWarningsPerFamily = 20;

// A read-only mapping of one file, unmapped on destruction.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) munmap(const_cast<uint8_t*>(data_), size_);
    if (fd_ >= 0) close(fd_);
  }

  // The first offset at or after off that holds data (not a hole of a
  // sparse file), or size() when none does. The recorder grows events.bin
  // sparsely; skipping holes keeps a huge mostly-empty file from being
  // paged in.
  size_t NextData(size_t off) const {
    if (fd_ < 0 || off >= size_) return size_;
    off_t d = lseek(fd_, static_cast<off_t>(off), SEEK_DATA);
    if (d < 0) return errno == ENXIO ? size_ : off;  // ENXIO: only a hole follows
    return static_cast<size_t>(d);
  }

  // Returns false with *err set when the file cannot be opened or mapped.
  // An empty file maps to data() == nullptr, size() == 0.
  bool Open(const std::string& path, std::string* err) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
    // below like every file that is not a regular file.
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      *err = errno == ENOENT
                 ? fmt::format("{}: no such file: not a gordian trace directory "
                               "(record one with 'gordian record')",
                               path)
                 : fmt::format("{}: {}", path, strerror(errno));
      return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
      *err = fmt::format("{}: {}", path, strerror(errno));
      close(fd);
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      *err = fmt::format("{}: not a regular file (a device, FIFO or directory); a trace's "
                         "events.bin is a file written by the recorder",
                         path);
      close(fd);
      return false;
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      // No MAP_POPULATE: pages are read as the scan reaches them, and holes
      // are skipped (NextData).
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        *err = fmt::format("{}: cannot map the trace: {}", path, strerror(errno));
        close(fd);
        size_ = 0;
        return false;
      }
      data_ = static_cast<const uint8_t*>(p);
      madvise(p, size_, MADV_SEQUENTIAL);
    }
    fd_ = fd;
    return true;
  }

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  // Drops the resident pages of [0, end) that the reader is done with: a
  // read-only private mapping reads them again from the page cache if they
  // are touched later. Without it every page of a large trace stays in the
  // resident set until the file is unmapped (a 401 MB trace: 438 MB peak).
  void ReleaseBefore(size_t end) const {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    end = std::min(end, size_) / page * page;
    if (data_ != nullptr && end > 0) {
      madvise(const_cast<uint8_t*>(data_), end, MADV_DONTNEED);
    }
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int fd_ = -1;  // kept open for NextData
};

// Collects warnings, keeping at most kMaxWarningsPerFamily per family and a
// count of the rest, so that a garbage file yields a readable list.
class Warnings {
 public:
  explicit Warnings(std::vector<std::string>* out) : out_(out) {}
  void Add(int family, std::string msg) {
    if (counts_.size() <= static_cast<size_t>(family)) counts_.resize(family + 1);
    if (counts_[family]++ < kMaxWarningsPerFamily) out_->push_back(std::move(msg));
  }
  void Finish() {
    for (size_t f = 0; f < counts_.size(); f++) {
      if (counts_[f] > kMaxWarningsPerFamily) {
        out_->push_back(fmt::format("... and {} more warnings like the above",
                                    counts_[f] - kMaxWarningsPerFamily));
      }
    }
  }

 private:
  std::vector<std::string>* out_;
  std::vector<size_t> counts_;
};

enum WarningFamily { kWarnChunk, kWarnRecord, kWarnOrder, kWarnSpawn };

// One chunk, or one run of a shared chunk, that holds records of a goroutine.
struct ChunkInfo {
  uint32_t gid;
  uint32_t seq;
  uint32_t index;   // the chunk's position in the file
  uint32_t count;   // live records (before the first empty or corrupt one)
  size_t records;   // offset of its first record after the file header
  uint32_t pos;     // position in scan order (spawns refer to it)
  bool keep = true;
};

// A GoSpawn record seen while scanning: it names a child that may have no
// records of its own (spawned, never scheduled).
struct SpawnInfo {
  uint32_t chunk;   // ChunkInfo::pos of its chunk, to drop spawns of dropped chunks
  uint32_t parent;
  uint32_t child;
  uint32_t child_index;
};

bool CheckHeader(const MappedFile& f, const std::string& path, FileHeader* h,
                 std::string* err) {
  size_t n = std::min(f.size(), sizeof(kFileMagic));
  if (n == 0) {
    *err = fmt::format("{}: empty file: the program stopped before the recorder "
                       "started; record the program again",
                       path);
    return false;
  }
  if (memcmp(f.data(), kFileMagic, n) != 0) {
    *err = fmt::format("{}: not a gordian trace (bad magic); pass a directory "
                       "written by 'gordian record'",
                       path);
    return false;
  }
  if (f.size() < sizeof(FileHeader)) {
    *err = fmt::format("{}: truncated file ({} bytes, shorter than the {}-byte "
                       "header); record the program again",
                       path, f.size(), sizeof(FileHeader));
    return false;
  }
  memcpy(h, f.data(), sizeof(FileHeader));
  if (h->version > kFormatVersion) {
    *err = fmt::format("{}: trace format version {} is newer than this gordian "
                       "(which reads version {}); update gordian",
                       path, h->version, kFormatVersion);
    return false;
  }
  if (h->version == 0) {
    *err = fmt::format("{}: corrupt header (format version 0); record the "
                       "program again",
                       path);
    return false;
  }
  if (h->record_bytes != sizeof(Record)) {
    *err = fmt::format("{}: corrupt header (record size {}, expected {}); "
                       "record the program again",
                       path, h->record_bytes, sizeof(Record));
    return false;
  }
  if (h->chunk_bytes < sizeof(ChunkHeader) + sizeof(Record) ||
      h->chunk_bytes > (64u << 20) || h->chunk_bytes % 8 != 0) {
    *err = fmt::format("{}: corrupt header (chunk size {}); record the program "
                       "again",
                       path, h->chunk_bytes);
    return false;
  }
  return true;
}

// The reader gives the pages of the mapped trace back this often.
constexpr size_t kReleaseStep = size_t{2} << 20;

// Counts the live records of one chunk or run of goroutine gid (at most
// limit, before the first empty or unknown one) and notes its spawns; the
// chunk or run is added to chunks.
void AddRecords(const uint8_t* recs, size_t limit, uint32_t gid, uint32_t seq, size_t chunk,
                size_t offset, Trace* t, std::vector<ChunkInfo>* chunks,
                std::vector<SpawnInfo>* spawns, Warnings* warn) {
  const uint32_t pos = static_cast<uint32_t>(chunks->size());
  uint32_t count = 0;
  for (; count < limit; count++) {
    const uint8_t* r = recs + static_cast<size_t>(count) * sizeof(Record);
    uint8_t kind = r[0];
    if (kind == 0) break;
    if (kind >= static_cast<uint8_t>(Kind::Count_)) {
      warn->Add(kWarnRecord,
                fmt::format("goroutine {} chunk {} (seq {}): record {} has unknown "
                            "kind {}; the rest of the chunk is skipped",
                            gid, chunk, seq, count, kind));
      t->truncated = true;
      break;
    }
    if (kind == static_cast<uint8_t>(Kind::GoSpawn)) {
      Record rec;
      memcpy(&rec, r, sizeof rec);
      spawns->push_back({pos, gid, rec.obj, rec.val});
    }
  }
  chunks->push_back({gid, seq, static_cast<uint32_t>(chunk), count, offset, pos});
}

// Adds the runs of shared chunk i (slots: the record slots after its
// header; offset: the first slot's offset after the file header).
void ScanRuns(const uint8_t* slots, size_t n_slots, size_t i, size_t offset, Trace* t,
              std::vector<ChunkInfo>* chunks, std::vector<SpawnInfo>* spawns,
              Warnings* warn) {
  for (size_t s = 0; s < n_slots;) {
    const uint8_t* slot = slots + s * sizeof(Record);
    RunHeader rh;
    memcpy(&rh, slot, sizeof rh);
    if (rh.magic != kRunMagic) {
      // A slot with magic 0 is free, or is the header of a run that the
      // recorder had not published (magic last) when the program died: its
      // records were never written, so its slots are skipped one by one.
      if (rh.magic == 0) {
        s++;
        continue;
      }
      warn->Add(kWarnChunk, fmt::format("chunk {}: slot {}: bad run magic {:#010x}; the "
                                        "rest of the chunk is skipped",
                                        i, s, rh.magic));
      t->truncated = true;
      return;
    }
    if (rh.gid == 0 || rh.gid > kMaxGid || rh.records == 0 || rh.records >= n_slots - s) {
      warn->Add(kWarnChunk, fmt::format("chunk {}: slot {}: impossible run (goroutine {}, "
                                        "{} records); the rest of the chunk is skipped",
                                        i, s, rh.gid, rh.records));
      t->truncated = true;
      return;
    }
    AddRecords(slot + sizeof(RunHeader), rh.records, rh.gid, rh.seq, i,
               offset + (s + 1) * sizeof(Record), t, chunks, spawns, warn);
    s += 1 + rh.records;
  }
}

// Scans every chunk header (and the run headers of shared chunks) and counts
// the live records of each chunk and run.
void ScanChunks(const MappedFile& f, const FileHeader& h, Trace* t,
                std::vector<ChunkInfo>* chunks, std::vector<SpawnInfo>* spawns,
                Warnings* warn) {
  const size_t body = f.size() - sizeof(FileHeader);
  const size_t chunk_bytes = h.chunk_bytes;
  const size_t per_chunk = (chunk_bytes - sizeof(ChunkHeader)) / sizeof(Record);
  size_t n_chunks = body / chunk_bytes;
  const size_t tail = body % chunk_bytes;
  if (tail != 0) {
    // The recorder grows the file a whole chunk at a time, so a partial chunk
    // means the file was cut (copied while recording, or a full disk).
    warn->Add(kWarnChunk, fmt::format("the file ends inside chunk {} ({} of {} bytes); "
                                      "its last records are lost",
                                      n_chunks, tail, chunk_bytes));
    t->truncated = true;
    if (tail >= sizeof(ChunkHeader) + sizeof(Record)) n_chunks++;
  }
  chunks->reserve(n_chunks);
  const uint8_t* base = f.data() + sizeof(FileHeader);
  size_t released = 0;
  for (size_t i = 0; i < n_chunks; i++) {
    if (size_t at = sizeof(FileHeader) + i * chunk_bytes; at - released >= kReleaseStep) {
      f.ReleaseBefore(at);
      released = at;
    }
    // A chunk inside a hole of the sparse file was never written: jump to
    // the next chunk that holds data without paging the hole in.
    size_t off = sizeof(FileHeader) + i * chunk_bytes;
    size_t data = f.NextData(off);
    if (data >= off + chunk_bytes) {
      // Chunks i up to the one holding `data` are holes; the loop's i++
      // lands on that one (next >= i + 1 here).
      size_t next = (data - sizeof(FileHeader)) / chunk_bytes;
      i = next - 1;
      continue;
    }
    const uint8_t* c = base + i * chunk_bytes;
    size_t avail = std::min(chunk_bytes, body - i * chunk_bytes);
    size_t limit = std::min(per_chunk, (avail - sizeof(ChunkHeader)) / sizeof(Record));
    ChunkHeader ch;
    memcpy(&ch, c, sizeof ch);
    const uint8_t* recs = c + sizeof(ChunkHeader);
    const size_t recs_offset = i * chunk_bytes + sizeof(ChunkHeader);
    if (ch.magic == kSharedChunkMagic) {
      ScanRuns(recs, limit, i, recs_offset, t, chunks, spawns, warn);
      continue;
    }
    if (ch.magic != kChunkMagic) {
      // A zero header with no records is a chunk the recorder reserved but
      // never handed out: not an error.
      if (ch.magic == 0 && ch.gid == 0 && ch.seq == 0 && recs[0] == 0) continue;
      warn->Add(kWarnChunk, fmt::format("chunk {}: bad chunk magic {:#010x}; skipped",
                                        i, ch.magic));
      t->truncated = true;
      continue;
    }
    if (ch.gid == 0 || ch.gid > kMaxGid) {
      warn->Add(kWarnChunk, fmt::format("chunk {}: impossible goroutine id {}; skipped",
                                        i, ch.gid));
      t->truncated = true;
      continue;
    }
    AddRecords(recs, limit, ch.gid, ch.seq, i, recs_offset, t, chunks, spawns, warn);
  }
}

// Sorts chunks by (gid, seq), drops duplicates and reports gaps.
void OrderChunks(std::vector<ChunkInfo>* chunks, Trace* t, Warnings* warn) {
  std::sort(chunks->begin(), chunks->end(), [](const ChunkInfo& a, const ChunkInfo& b) {
    if (a.gid != b.gid) return a.gid < b.gid;
    if (a.seq != b.seq) return a.seq < b.seq;
    return a.records < b.records;
  });
  uint32_t gid = 0, next_seq = 0;
  for (ChunkInfo& c : *chunks) {
    if (c.gid != gid) {
      gid = c.gid;
      next_seq = 0;
    }
    if (c.seq < next_seq) {
      warn->Add(kWarnOrder, fmt::format("goroutine {}: chunk {} repeats seq {}; skipped",
                                        c.gid, c.index, c.seq));
      t->truncated = true;
      c.keep = false;
      continue;
    }
    if (c.seq > next_seq) {
      warn->Add(kWarnOrder,
                fmt::format("goroutine {}: chunks {}..{} are missing; its records "
                            "around them are incomplete",
                            c.gid, next_seq, c.seq - 1));
      t->truncated = true;
    }
    next_seq = c.seq + 1;
  }
}

// Fills parent, child_index and stable_id of every goroutine.
void ComputeStableIds(Trace* t, Warnings* warn) {
  std::vector<Goroutine>& gs = t->goroutines;
  // 0 = not visited, 1 = in progress, 2 = done.
  std::vector<uint8_t> state(gs.size(), 0);
  // The recorder's pseudo-goroutine (GoStart obj 0, val 0xffffffff, holding
  // GlobalDeadlock) is not part of the program: it is called "recorder".
  for (size_t i = 0; i < gs.size(); i++) {
    const Goroutine& g = gs[i];
    if (g.begin < g.end && t->records[g.begin].kind == Kind::GoStart &&
        t->records[g.begin].obj == 0 && t->records[g.begin].val == kDefaultCase) {
      gs[i].stable_id = "recorder";
      state[i] = 2;
    }
  }
  std::vector<uint32_t> path;
  std::vector<uint32_t> unknown_parent;  // goroutines the runtime started (a note, no damage)
  for (size_t i = 0; i < gs.size(); i++) {
    if (state[i] == 2) continue;
    // Walk up to a goroutine whose id is known, then assign on the way down.
    path.clear();
    uint32_t gid = static_cast<uint32_t>(i + 1);
    std::string prefix;
    while (true) {
      Goroutine& g = gs[gid - 1];
      if (state[gid - 1] == 2) {
        prefix = g.stable_id;
        break;
      }
      if (state[gid - 1] == 1) {
        warn->Add(kWarnSpawn, fmt::format("goroutine {}: its spawn chain is a cycle", gid));
        prefix.assign(1, '?');
        break;
      }
      state[gid - 1] = 1;
      path.push_back(gid);
      if (gid == 1) {
        prefix.clear();
        break;
      }
      if (g.parent == 0 || g.parent > gs.size()) {
        if (g.parent != 0) {
          warn->Add(kWarnSpawn, fmt::format("goroutine {}: parent {} is not in the trace",
                                            gid, g.parent));
        }
        // No known parent (its GoStart was lost): give it an id that cannot
        // collide with a spawn path.
        prefix.clear();
        break;
      }
      gid = g.parent;
    }
    for (size_t k = path.size(); k-- > 0;) {
      Goroutine& g = gs[path[k] - 1];
      if (g.gid == 1) {
        g.stable_id.assign(1, '1');
      } else if (prefix.empty() || prefix == "?") {
        g.stable_id = fmt::format("?{}", g.gid);
        if (prefix.empty() && g.parent == 0) unknown_parent.push_back(g.gid);
      } else {
        g.stable_id = fmt::format("{}.{}", prefix, g.child_index);
      }
      prefix = g.stable_id;
      state[path[k] - 1] = 2;
    }
  }
  // Goroutines without a recorded go statement are normal (the runtime's
  // and the testing package's own, timers' AfterFunc goroutines): one note
  // for --verbose, not a warning per goroutine that nobody can act on.
  if (!unknown_parent.empty()) {
    std::sort(unknown_parent.begin(), unknown_parent.end());
    std::string ids;
    for (size_t k = 0; k < unknown_parent.size() && k < 10; k++) {
      ids += fmt::format("{}{}", k ? ", " : "", unknown_parent[k]);
    }
    if (unknown_parent.size() > 10) ids += ", ...";
    t->notes.push_back(fmt::format(
        "{} goroutine{} without a recorded go statement (started by the runtime or a "
        "library outside the recorded code): parent unknown, so {} id{} (?N) {} not stable "
        "across runs: goroutine {}",
        unknown_parent.size(), unknown_parent.size() == 1 ? "" : "s",
        unknown_parent.size() == 1 ? "its" : "their", unknown_parent.size() == 1 ? "" : "s",
        unknown_parent.size() == 1 ? "is" : "are", ids));
  }
}

}  // namespace

void AssignStableIds(Trace* t) {
  Warnings warn(&t->warnings);
  ComputeStableIds(t, &warn);
  warn.Finish();
}

std::string IncompleteReason(const FileHeader& h) {
  if (!(h.flags & kFileTruncated)) return "";
  return (h.flags & kFileDiskFull)
             ? "the disk of the trace directory was full (free some space, or set GORDIAN_CACHE "
               "to a larger disk)"
             : "the trace reached its size limit (GORDIAN_TRACE_MAX_MB) or the recorder's clock "
               "limit";
}

namespace {

// Record k of chunk c in the mapping (copied: the mapping's records need
// not be aligned for a Record).
Record RecordAt(const uint8_t* base, const ChunkInfo& c, uint32_t k) {
  Record r;
  memcpy(&r, base + c.records + size_t(k) * sizeof(Record), sizeof(Record));
  return r;
}

}  // namespace

bool ReadTrace(const std::string& dir, Trace* out, std::string* err) {
  return ReadTrace(dir, out, err, ReadSelection{});
}

bool ReadTrace(const std::string& dir, Trace* out, std::string* err, const ReadSelection& sel) {
  *out = Trace();
  const std::string path = dir + "/events.bin";
  MappedFile f;
  if (!f.Open(path, err)) return false;
  Trace& t = *out;
  if (!CheckHeader(f, path, &t.header, err)) return false;
  Warnings warn(&t.warnings);
  if (t.header.flags & kFileTruncated) {
    t.truncated = true;
    t.incomplete = IncompleteReason(t.header);
    warn.Add(kWarnChunk, "the recorder stopped early: " + t.incomplete +
                             "; the trace ends before the program did");
  }

  std::vector<ChunkInfo> chunks;
  std::vector<SpawnInfo> spawns;
  ScanChunks(f, t.header, &t, &chunks, &spawns, &warn);
  // Spawns refer to chunks by scan position (pos); mark dropped ones after sorting.
  OrderChunks(&chunks, &t, &warn);

  // Children that were spawned but never recorded anything still exist; the
  // spawns of dropped chunks do not count.
  std::vector<uint8_t> dropped_by_pos(chunks.size(), 0);
  for (const ChunkInfo& c : chunks) dropped_by_pos[c.pos] = !c.keep;
  auto spawn_kept = [&](const SpawnInfo& s) { return !dropped_by_pos[s.chunk]; };

  // Gids are dense: every goroutine has chunks or was spawned by a recorded
  // one, so no real gid exceeds (goroutines with chunks + spawns). A larger
  // one is a corrupt header, and would make us allocate for nothing.
  uint64_t gid_bound = 1;
  for (size_t i = 0; i < chunks.size(); i++) {
    if (chunks[i].keep && (i == 0 || chunks[i - 1].gid != chunks[i].gid)) gid_bound++;
  }
  for (const SpawnInfo& s : spawns) gid_bound += spawn_kept(s);
  // The selection's goroutines: 0 = left out, 1 = whole, 2 = the records
  // sel.record accepts (counted here, so that t.records is sized once).
  auto selected = [&](uint32_t gid) -> int {
    if (!sel.selective()) return 1;
    if (gid < sel.goroutines.size() && sel.goroutines[gid]) return 1;
    return sel.record ? 2 : 0;
  };
  const uint8_t* base = f.data() + sizeof(FileHeader);
  uint64_t total = 0;
  uint32_t max_gid = 0;
  for (ChunkInfo& c : chunks) {
    if (!c.keep) continue;
    if (const int how = selected(c.gid); how != 1 && c.gid <= gid_bound) {
      max_gid = std::max(max_gid, c.gid);
      if (how == 2) {
        for (uint32_t k = 0; k < c.count; k++) total += sel.record(c.gid, RecordAt(base, c, k));
      }
      continue;
    }
    if (c.gid > gid_bound) {
      warn.Add(kWarnChunk, fmt::format("chunk {}: goroutine id {} is impossible in a "
                                       "trace of this size; skipped",
                                       c.index, c.gid));
      t.truncated = true;
      c.keep = false;
      dropped_by_pos[c.pos] = 1;
      continue;
    }
    total += c.count;
    max_gid = std::max(max_gid, c.gid);
  }
  if (total > UINT32_MAX) {
    *err = fmt::format("{}: {} records is more than this gordian can hold (4G)", path,
                       total);
    return false;
  }
  for (const SpawnInfo& s : spawns) {
    if (spawn_kept(s) && s.child != 0 && s.child <= gid_bound) {
      max_gid = std::max(max_gid, s.child);
    }
  }

  // Huge pages: the clock builder reads these at random (util/huge_pages.h).
  util::ReserveHuge(&t.records, total);
  t.records.resize(total);
  t.goroutines.resize(max_gid);
  for (uint32_t g = 0; g < max_gid; g++) t.goroutines[g].gid = g + 1;
  // Where each kept chunk's records go (goroutine by goroutine, in seq
  // order); they are then copied in file order, so that the pages of the
  // mapping can be given back behind the copy.
  struct Copy {
    size_t records;  // offset of the first record after the file header
    uint32_t count;
    size_t at;       // into t.records
  };
  std::vector<Copy> copies;
  size_t at = 0;
  for (size_t i = 0; i < chunks.size();) {
    uint32_t gid = chunks[i].gid;
    if (gid > max_gid) break;  // the rest were dropped as impossible
    Goroutine& g = t.goroutines[gid - 1];
    g.begin = static_cast<uint32_t>(at);
    const int how = selected(gid);
    for (; i < chunks.size() && chunks[i].gid == gid; i++) {
      const ChunkInfo& c = chunks[i];
      if (!c.keep || c.count == 0 || how == 0) continue;
      if (how == 2) {
        for (uint32_t k = 0; k < c.count; k++) {
          const Record r = RecordAt(base, c, k);
          if (sel.record(gid, r)) t.records[at++] = r;
        }
        continue;
      }
      copies.push_back({c.records, c.count, at});
      at += c.count;
    }
    g.end = static_cast<uint32_t>(at);
  }
  std::sort(copies.begin(), copies.end(),
            [](const Copy& a, const Copy& b) { return a.records < b.records; });
  size_t released = 0;
  for (const Copy& c : copies) {
    if (sizeof(FileHeader) + c.records - released >= kReleaseStep) {
      released = sizeof(FileHeader) + c.records;
      f.ReleaseBefore(released);
    }
    memcpy(&t.records[c.at], base + c.records, static_cast<size_t>(c.count) * sizeof(Record));
  }
  f.ReleaseBefore(f.size());
  // Goroutines without records get an empty range at the end: begin == end.
  for (Goroutine& g : t.goroutines) {
    if (g.begin == 0 && g.end == 0) g.begin = g.end = static_cast<uint32_t>(at);
  }

  // Parents: the child's own GoStart wins; the parent's GoSpawn fills in for
  // children without one.
  for (Goroutine& g : t.goroutines) {
    if (g.begin < g.end && t.records[g.begin].kind == Kind::GoStart) {
      g.parent = t.records[g.begin].obj;
      g.child_index = t.records[g.begin].val;
    }
  }
  for (const SpawnInfo& s : spawns) {
    if (!spawn_kept(s)) continue;
    if (s.child == 0 || s.child > t.goroutines.size() || s.child == 1) continue;
    Goroutine& g = t.goroutines[s.child - 1];
    if (g.parent == 0) {
      g.parent = s.parent;
      g.child_index = s.child_index;
    }
  }
  if (!LoadGoroutineFile(dir, &t, err)) return false;
  if (!t.goroutines.empty()) {
    t.goroutines[0].parent = 0;
    t.goroutines[0].child_index = 0;
  }
  ComputeStableIds(&t, &warn);
  warn.Finish();
  return LoadSideFiles(dir, &t, err);
}

}  // namespace gordian::trace
