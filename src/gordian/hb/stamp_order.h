// This file defines the stamp order: every step the clock builder's
// scheduler can take, as (stamp << 32 | goroutine index), sorted once
// before the replay. The scheduler replays the ready goroutine whose next
// step has the smallest stamp; with thousands of goroutines a heap over
// them cost a cache miss per step (the next record of a goroutine that ran
// thousands of steps ago) and a dozen unpredictable comparisons (issue 12,
// docs/scale.md). Walking this array instead reads it in order and tells,
// steps ahead, which goroutine and record come next, so that their loads
// can be started early.
#pragma once

#include <cstdint>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::hb {

// The stamps at which a record is a goroutine's next step (Builder::HeadKey
// gives one of them, depending on the goroutine's state): its tpre when it
// never completed, or for the pre steps of a Once.Do that ran f and of a
// Cond.Wait; its tpost when it completed (the Once.Do's post is a step of
// its own, after f's records).
inline bool StepsAtPre(const trace::Record& r) {
  return r.tpost == 0 || (r.kind == trace::Kind::OnceDo && (r.flags & trace::kSuccess)) ||
         r.kind == trace::Kind::CondWait;
}
inline bool StepsAtPost(const trace::Record& r) { return r.tpost != 0; }

// Every (stamp, goroutine) step of the trace's records, each as
// stamp << 32 | goroutine index, sorted by stamp, then goroutine, then
// record. Goroutines' record ranges must lie inside the trace.
std::vector<uint64_t> StampOrder(const trace::Trace& t);

// Sorts values by their high 32 bits, keeping the order of equal ones
// (a radix sort: three passes of 11 bits, each skipped when every value
// has the same digit there).
void SortByHighWord(std::vector<uint64_t>* v);

}  // namespace gordian::hb
