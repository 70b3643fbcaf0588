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

class OpRuns {
 public:
  struct Run {
    GoroutineIndex g;
    uint32_t begin;  // [begin, end) into recs
    uint32_t end;
  };

  // recs must be in trace order (as OpIndex::Ops lists them).
  void Add(GoroutineIndex g, uint32_t rec) {
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
  uint32_t rec(uint32_t k) const { return recs_[k]; }

  // The first operation of run r concurrent with x, or kNoRecord. *calls
  // counts the happens-before queries made.
  uint32_t FirstConcurrent(const hb::HappensBefore& hb, const Run& r, uint32_t x,
                           uint64_t* calls) const {
    uint32_t lo = FirstNotBefore(hb, r, x, calls);
    if (lo == r.end) return hb::kNoRecord;
    ++*calls;
    return hb.Before(x, recs_[lo]) ? hb::kNoRecord : recs_[lo];
  }
  // Index (into recs) of the first operation of run r that does not happen
  // before x; r.end if all do.
  uint32_t FirstNotBefore(const hb::HappensBefore& hb, const Run& r, uint32_t x,
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
  std::vector<uint32_t> recs_;
  std::vector<Run> runs_;
};

// The information scenarios look at most kSample operations of one object
// (evenly spread): every stride-th one.
inline constexpr uint32_t kSample = 4096;
inline uint32_t SampleStride(size_t n) { return n / kSample > 1 ? uint32_t(n / kSample) : 1; }

// The operations on one channel by direction (sends and receives include
// select cases, chosen or not; closes exclude the ones that panicked).
struct ChanRuns {
  OpRuns send, recv;
  std::vector<uint32_t> closes;
};

}  // namespace gordian::detect
