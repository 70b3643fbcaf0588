// This file owns which objects lose their clocks when the happens-before
// engine does not fit in the memory budget: the largest first, by number of
// operations. A trace that outgrows the budget usually does so through a
// few huge objects (a work queue with millions of operations, a mutex that
// every one of 10,000 goroutines takes, a WaitGroup every goroutine joins);
// shedding them keeps the predictions about every other object, where
// losing the engine loses them all (analyze_trace.cc tries the whole engine
// first, then sheds more and more: memory_budget.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/hb/record_mask.h"

namespace gordian::pipeline {

struct Shedding {
  // Per record: 1 = no clock (hb::HbOptions::unclocked). A Select is shed
  // when all its cases' channels are.
  std::shared_ptr<hb::RecordMask> unclocked;
  uint64_t records = 0;  // records marked
  uint32_t objects = 0;  // objects shed
  // The largest few, for the report: "channel made at pool.go:41 (2,000,000
  // operations)".
  std::vector<std::string> largest;
};

// Sheds the objects of ops with the most operations, largest first, until
// the shed operations make up at least `share` (0..1] of all operations
// on objects. Never sheds an object with fewer than kMinShedOps operations
// (small objects are what shedding is for), so the result may fall short of
// share; records == 0 then means there was nothing worth shedding.
Shedding ShedLargestObjects(const hb::OpIndex& ops, double share);
inline constexpr uint32_t kMinShedOps = 64;

// "3 objects (2,000,000 operations): channel made at pool.go:41 (1,999,000
// operations), ..." for the degraded note.
std::string DescribeShedding(const Shedding& s);

}  // namespace gordian::pipeline
