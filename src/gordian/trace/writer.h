// This file declares TraceWriter, which writes a trace directory in exactly
// the format the Go recorder writes (event.h, side_files.h): the tests'
// round trips, the synthetic traces of the analysis tests and benchmarks, and
// rewritten traces all come from here.
//
// The writer keeps the trace in memory and lays it out on Write(): chunks
// are placed in the file in the order the goroutines filled them, as the
// recorder would, so several goroutines' chunks interleave.
//
//   TraceWriter w;                              // goroutine 1 = main exists
//   uint32_t site = w.AddSite("/src/main.go", 12, "main.main");
//   uint32_t ch = w.NewObject();
//   w.Op(1, Kind::ChanMake, ch, /*val=*/0, site);
//   uint32_t g = w.Go(1, site);                 // GoSpawn in 1, GoStart in g
//   RecordRef s = w.Pre(g, Kind::ChanSend, ch, site);
//   RecordRef r = w.Pre(1, Kind::ChanRecv, ch, site);
//   w.Post(s, 1); w.Post(r, 1);                 // the first value on ch
//   w.Write(dir, &err);
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/trace/event.h"
#include "gordian/trace/trace.h"

namespace gordian::trace {

// A record already appended: goroutine and index in its program order.
struct RecordRef {
  uint32_t gid = 0;
  uint32_t index = 0;
};

class TraceWriter {
 public:
  // chunk_bytes other than kChunkBytes makes small chunks, so that tests can
  // cross chunk boundaries with a handful of records.
  explicit TraceWriter(uint32_t chunk_bytes = kChunkBytes);

  // ---- side tables
  uint32_t AddSite(std::string file, uint32_t line, std::string function,
                   bool user = true, uint32_t column = 0);
  uint32_t AddString(std::string s);
  void SetMeta(std::string key, std::string value);
  void SetFlags(uint32_t file_flags) { header_.flags = file_flags; }
  void SetOrigin(uint64_t start_unix_ns, uint32_t pid) {
    header_.start_unix_ns = start_unix_ns;
    header_.pid = pid;
  }

  // ---- ids and time
  // A fresh dense object id (channels and sync objects share one space).
  uint32_t NewObject() { return ++last_object_; }
  // The next global stamp.
  uint32_t Now() { return ++clock_; }
  // The number of goroutines so far (gids are 1..count).
  uint32_t goroutine_count() const { return static_cast<uint32_t>(gs_.size()); }

  // ---- records
  // Spawns a goroutine from parent: GoSpawn in the parent, GoStart as the
  // child's first record. Returns the child's gid.
  uint32_t Go(uint32_t parent, uint32_t site = 0);
  // A non-blocking operation: tpre == tpost == Now().
  RecordRef Op(uint32_t gid, Kind kind, uint32_t obj, uint32_t val, uint32_t site,
               uint8_t flags = 0, uint16_t aux = 0);
  // The start of a blocking operation: tpre = Now(), tpost = 0.
  RecordRef Pre(uint32_t gid, Kind kind, uint32_t obj, uint32_t site,
                uint8_t flags = 0, uint16_t aux = 0);
  // Its completion: tpost = Now(), and val; flags are or'ed in.
  void Post(RecordRef r, uint32_t val, uint8_t flags = 0);
  // Appends r as given (any fields, kind included). A gid beyond the count
  // creates it (and the ones between, with no records) without a GoStart.
  RecordRef Append(uint32_t gid, const Record& r);
  Record& At(RecordRef r) { return gs_[r.gid - 1].records[r.index]; }

  // Writes dir/events.bin and the side files; creates dir if needed.
  bool Write(const std::string& dir, std::string* err) const;

 private:
  struct G {
    std::vector<Record> records;
    std::vector<uint32_t> chunks;  // file chunk index of each of its chunks
    uint32_t children = 0;
  };
  G& GetOrCreate(uint32_t gid);
  static constexpr uint32_t kMaxSkippedGids = 1u << 20;

  FileHeader header_{};
  uint32_t per_chunk_;
  uint32_t clock_ = 0;
  uint32_t last_object_ = 0;
  uint32_t next_chunk_ = 0;
  std::vector<G> gs_;
  std::vector<Site> sites_;            // [0] = unknown
  std::vector<std::string> strings_;   // [0] = ""
  std::map<std::string, std::string> meta_;
};

}  // namespace gordian::trace
