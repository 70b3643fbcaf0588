// This file owns the question the reordering strategies (pair flip,
// scheduling chains) ask of every pair of a run's operations they might
// put in the other order: could the later one have taken effect first?
#pragma once

#include <cstdint>

#include "gordian/hb/happens_before.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::fuzz {

// Whether x can take effect before y, which the run had first: other
// goroutines, unordered by happens-before. A kind a schedule orders at its
// start (Once.Do, Cond.Wait, Add, Signal) is ordered by its start; one
// ordered at its completion (WaitGroup.Wait) by its completion, which must
// not have waited for y (a Wait that a Done released stays after it).
inline bool CanGoFirst(const hb::HappensBefore& e, trace::RecordId x, trace::RecordId y) {
  if (e.ops().GidOf(x) == e.ops().GidOf(y) || e.Before(x, y) || e.Before(y, x)) return false;
  if (!trace::InfoOf(e.trace().records[x].kind).at_post) return true;
  return e.Knows(x, true, trace::Value(e.ops().GidOf(y))) < e.PostEpoch(y);
}

}  // namespace gordian::fuzz
