// This file defines a recorded trace in memory, as every analysis sees it:
// the records of each goroutine in program order, plus the side tables
// (source sites, strings, metadata). It is the output of ReadTrace and the
// input of the happens-before engine, the detectors and replay.
//
// Layout is flat for speed: all records sit in one array, goroutine by
// goroutine; a goroutine is a [begin, end) range into it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "gordian/trace/event.h"
#include "gordian/trace/kinds.h"

namespace gordian::trace {

// A source position the recorder saw an operation at (sites.txt).
struct Site {
  std::string file;      // absolute path as compiled (the original file, not an overlay copy)
  uint32_t line = 0;
  uint32_t column = 0;   // 0 when the recorder does not know it (filled in from the AST later)
  std::string function;  // e.g. "main.worker" or "example.com/x.(*T).Run.func1"
  bool user = false;     // inside the user's packages (not the standard library)
};

struct Goroutine {
  uint32_t gid = 0;          // dense id, 1 = main goroutine
  uint32_t parent = 0;       // gid of the spawning goroutine, 0 for main (and unknown)
  uint32_t child_index = 0;  // n-th goroutine spawned by the parent (0-based)
  uint32_t begin = 0;        // [begin, end) into Trace::records
  uint32_t end = 0;
  std::string stable_id;     // spawn path: "1" for main, "1.0", "1.0.3", ...
};

struct Trace {
  FileHeader header{};
  std::vector<Record> records;        // all records, grouped by goroutine
  std::vector<Goroutine> goroutines;  // index gid-1 (gids are dense from 1)
  std::vector<Site> sites;            // index = site id; sites[0] is "unknown"
  std::vector<std::string> strings;   // index = string id; strings[0] is ""
  std::map<std::string, std::string> meta;  // meta.txt
  bool truncated = false;             // a chunk was torn or the recorder stopped early
  // Why the recorder stopped before the program did ("" when it did not):
  // the trace holds only what came before, and no report may read its end
  // as the program's.
  std::string incomplete;
  std::vector<std::string> warnings;  // what the reader repaired or skipped
  // Facts about the trace that are no damage and that a user cannot act on
  // (goroutines the runtime started, whose ids are not stable): --verbose.
  std::vector<std::string> notes;

  std::span<const Record> RecordsOf(const Goroutine& g) const {
    return {records.data() + g.begin, g.end - g.begin};
  }
  const Goroutine* FindGoroutine(uint32_t gid) const {
    return gid >= 1 && gid <= goroutines.size() ? &goroutines[gid - 1] : nullptr;
  }
  const Site& SiteOf(const Record& r) const {
    return r.site < sites.size() ? sites[r.site] : sites.at(0);
  }
};

// The site of r as "file:line", "?" if unknown.
inline std::string SiteText(const Trace& t, const Record& r) {
  const Site& s = t.SiteOf(r);
  if (r.site == 0 || s.file.empty()) return "?";
  return s.file + ":" + std::to_string(s.line);
}

// Reads DIR (events.bin and side files). Tolerates a trace cut short by a
// crash (torn last records are dropped, with a warning). Returns false with
// a message saying what is wrong and what to do on a missing or corrupt trace.
bool ReadTrace(const std::string& dir, Trace* out, std::string* err);

// Which records a selective ReadTrace keeps: every record of the goroutines
// marked in `goroutines` (index gid), and of the others those `record`
// accepts (none when it is null). The goroutine table is the whole
// trace's (every gid, parent and spawn path), with empty ranges for
// goroutines none of whose records are kept. An empty selection keeps
// everything. For the analysis of a large trace one group of tests at a
// time (pipeline/trace_windows.h).
struct ReadSelection {
  std::vector<uint8_t> goroutines;
  std::function<bool(uint32_t gid, const Record&)> record;
  bool selective() const { return !goroutines.empty() || record != nullptr; }
};
bool ReadTrace(const std::string& dir, Trace* out, std::string* err, const ReadSelection& sel);

// Why a trace with this header ends before its program did (Trace::
// incomplete), or "" when its recorder did not stop early.
std::string IncompleteReason(const FileHeader& h);

// Fills stable_id of every goroutine from the parent and child_index
// already set, as ReadTrace does (warnings go to t->warnings). For readers
// of other forms of a trace (text.h).
void AssignStableIds(Trace* t);

}  // namespace gordian::trace
