// This file defines OpRuns: the operations of one direction on one object,
// grouped into per-goroutine runs in program order. Within a run,
// "happens before x" holds for a prefix and "x happens before" for a
// suffix, so the operations of a goroutine that are concurrent with x form
// one interval found by binary search: O(goroutines * log n) per query
// instead of O(n). Used by the information scenarios (alternatives.cc,
// contention.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/trace/ids.h"

namespace gordian::detect {

using trace::GoroutineIndex;
using trace::RecordId;

class OpRuns {
 public:
  struct Run {
    GoroutineIndex g;
    uint32_t begin;  // [begin, end) into recs
    uint32_t end;
  };

  // recs must be in trace order (as OpIndex::Ops lists them).
  void Add(GoroutineIndex g, RecordId rec) {
    if (runs_.empty() || runs_.back().g != g) {
      runs_.push_back({g, uint32_t(recs_.size()), uint32_t(recs_.size())});
    }
    recs_.push_back(rec);
    runs_.back().end++;
  }
  void Clear() {
    recs_.clear();
    runs_.clear();
  }
  bool empty() const { return recs_.empty(); }
  size_t size() const { return recs_.size(); }
  const std::vector<Run>& runs() const { return runs_; }
  RecordId rec(uint32_t k) const { return recs_[k]; }

  // The first operation of run r concurrent with x, or kNoRecord. *calls
  // counts the happens-before queries made.
  RecordId FirstConcurrent(const hb::HappensBefore& hb, const Run& r, RecordId x,
                           uint64_t* calls) const {
    uint32_t lo = FirstNotBefore(hb, r, x, calls);
    if (lo == r.end) return hb::kNoRecord;
    ++*calls;
    return hb.Before(x, recs_[lo]) ? hb::kNoRecord : recs_[lo];
  }
  // Index (into recs) of the first operation of run r that does not happen
  // before x; r.end if all do.
  uint32_t FirstNotBefore(const hb::HappensBefore& hb, const Run& r, RecordId x,
                          uint64_t* calls) const {
    uint32_t lo = r.begin, hi = r.end;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      ++*calls;
      if (hb.Before(recs_[mid], x)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

 private:
  std::vector<RecordId> recs_;
  std::vector<Run> runs_;
};

// The information scenarios look at most kSample operations of one object
// (evenly spread): every stride-th one.
inline constexpr uint32_t kSample = 4096;
inline uint32_t SampleStride(size_t n) { return n / kSample > 1 ? uint32_t(n / kSample) : 1; }

// The runs of an OpRuns still worth asking about for the operations x of
// one goroutine g, visited in g's program order. A run whose operations all
// happen before x happens before g's later operations too: once a visit
// says Drop, the run is skipped for g's later operations. Runs are visited
// in their order, g's own runs never; the runs past the point where a visit
// said Stop are visited only when a later operation gets that far, so the
// cost follows the runs actually asked about.
class LiveRuns {
 public:
  enum class Verdict { Keep, Drop, Stop };  // Stop: keep this run, visit no more

  // Starts over for the operations of goroutine g.
  void Reset(GoroutineIndex g) {
    g_ = g;
    kept_.clear();
    tail_ = 0;
  }
  GoroutineIndex goroutine() const { return g_; }

  // Calls visit(run index into runs.runs()) for each live run, in order.
  template <class Visit>
  void ForEach(const OpRuns& runs, Visit visit) {
    size_t keep = 0, i = 0;
    bool stop = false;
    for (; i < kept_.size() && !stop; ++i) {
      Verdict v = visit(kept_[i]);
      if (v != Verdict::Drop) kept_[keep++] = kept_[i];
      stop = v == Verdict::Stop;
    }
    for (; i < kept_.size(); ++i) kept_[keep++] = kept_[i];
    kept_.resize(keep);
    const std::vector<OpRuns::Run>& rs = runs.runs();
    while (!stop && tail_ < rs.size()) {
      uint32_t r = tail_++;
      if (rs[r].g == g_) continue;
      Verdict v = visit(r);
      if (v != Verdict::Drop) kept_.push_back(r);
      stop = v == Verdict::Stop;
    }
  }

 private:
  GoroutineIndex g_ = trace::kNoGoroutine;
  std::vector<uint32_t> kept_;  // visited and not dropped, in order, all < tail_
  uint32_t tail_ = 0;           // runs from here on not visited yet
};

// The operations on one channel by direction (sends and receives include
// select cases, chosen or not; closes exclude the ones that panicked).
struct ChanRuns {
  OpRuns send, recv;
  std::vector<RecordId> closes;
};

}  // namespace gordian::detect
