// This file defines the coverage signal of `gordian fuzz`: what a run did
// that no earlier run of the campaign did. A run's signals are hashes of
//   - ordered pairs of operation sites on one object: each operation and
//     the next one on the same channel, lock, WaitGroup, Once or Cond by
//     another goroutine, in the order they took effect (which message got
//     in first, who took the lock after whom);
//   - select cases taken: a select site and the case (or default) it chose;
//   - the set of operations blocked when the run ended (their sites and
//     kinds, as one signal per distinct set).
// Sites, not object ids or goroutine ids, so that the signals of two runs
// compare (ids change from run to run; sites do not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/trace/trace.h"

namespace gordian::fuzz {

struct RunSignals {
  std::vector<uint64_t> pairs;    // ordered site pairs per object
  std::vector<uint64_t> selects;  // select site + case taken
  uint64_t blocked = 0;           // the set of blocked operations at the end (0: none blocked)
};

// The signals of the run recorded in t (ops is its index).
RunSignals SignalsOf(const trace::Trace& t, const hb::OpIndex& ops);

// What the campaign has covered so far.
class Coverage {
 public:
  // Adds the run's signals; returns how many were new.
  size_t Add(const RunSignals& s);
  size_t size() const { return seen_.size(); }

 private:
  std::unordered_set<uint64_t> seen_;
};

}  // namespace gordian::fuzz
