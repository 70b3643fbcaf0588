// This file owns the memory budget of the analysis of one trace: the bytes
// the trace, its operation index, the happens-before engine and the
// predictive detectors' second engine may hold together, and the notes that
// say what the analysis dropped to stay within them.
//
// How the analysis degrades (analyze_trace.cc), cheapest loss first:
//   1. the second engine (no mutex edges: lock-order and mixed-deadlock
//      predictions) gets what the first one left; when that is not enough
//      for its per-record arrays it is not built and those predictions are
//      dropped;
//   2. the first engine gets what the trace and the index left: three
//      quarters of it for stored snapshots, the rest for live clocks. In
//      tree mode it frees the clock nodes nothing reaches any more when it
//      nears that room (hb/tree_clock.h, "Memory"). When it still does not
//      fit, it is built again without the clocks of the largest objects
//      (object_shedding.h: the objects with the most operations, more of
//      them each time, up to four attempts), so that the predictions about
//      every other object survive; the note names the largest ones shed;
//   3. on the last attempt, when the snapshots run out, the records
//      replayed after that get no clock (hb/clock_store.h) and every
//      prediction about them is dropped;
//   4. when the live clocks alone outgrow all of it (hb::HbOptions::
//      memory_limit_bytes; shedding cannot help), or not even the engine's
//      per-record arrays fit, there is no happens-before analysis and no
//      prediction at all.
// The occurred detectors always run: what happened in the run is read off
// the trace and never dropped. When the engine is missing or lost clocks,
// they use their trace-only criteria instead of asking it. Each loss is one
// sentence in MemoryBudget::dropped, which every report carries (terminal,
// --json "degraded", --sarif notifications: docs/reports.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::pipeline {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}

  uint64_t limit() const { return limit_; }
  uint64_t used() const { return used_; }
  uint64_t left() const { return used_ < limit_ ? limit_ - used_ : 0; }
  void Charge(uint64_t bytes) { used_ += bytes; }
  // Gives back what was charged for something freed.
  void Release(uint64_t bytes) { used_ -= std::min(used_, bytes); }

  // The clock budget of a happens-before engine over records and
  // goroutines: what is left after its fixed arrays (EngineFixedBytes), or
  // false when they do not fit.
  bool ClockBudgetFor(uint64_t records, uint64_t goroutines, uint64_t* clock_bytes) const;

  // Says that the analysis dropped something ("no predictions for ...").
  void Drop(std::string what) { dropped_.push_back(std::move(what)); }
  const std::vector<std::string>& dropped() const { return dropped_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
  std::vector<std::string> dropped_;
};

// What holding t in memory costs: its records, goroutines, sites and strings.
uint64_t TraceBytes(const trace::Trace& t);
// What a happens-before engine holds besides its clocks: two snapshot ids
// per record and its per-goroutine replay state.
uint64_t EngineFixedBytes(uint64_t records, uint64_t goroutines);
// What the detectors' own tables (the finding index, per-channel runs)
// are reserved per record before the engines get the rest.
inline constexpr uint64_t kDetectorBytesPerRecord = 16;

}  // namespace gordian::pipeline
