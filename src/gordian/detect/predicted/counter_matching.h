// This file defines the counter matching shared by the negative-WaitGroup
// and unlock-of-unlocked predictions: can some schedule consistent with the
// happens-before relation make a counter (WaitGroup counter, or the number
// of holders of a mutex) negative?
//
// Argument (after ADVOCATE's max-flow check, made exact): give every
// decrement D (Done, Unlock) as many units as it subtracts and every
// increment A (Add, Lock) as many as it adds, and let D use A's units when A
// happens before D. If a flow saturates every decrement, no schedule goes
// negative: in any prefix of any schedule, each decrement's matched units
// come from increments that precede it, so increments >= decrements. If not,
// by the max-flow/min-cut theorem there is a set S of decrements whose
// happens-before predecessors supply fewer units than S needs; the
// downward closure of S is a valid prefix of some schedule (the predictive
// assumption: the happens-before relation is all the run's order that must
// be kept) and ends with a negative counter.
//
// The bipartite graph is kept small with the structure of happens-before:
// the increments of one goroutine that happen before D are a prefix of its
// increments in program order, so D gets one edge per goroutine (to the last
// increment it sees) and each increment an edge to the previous one of its
// goroutine.
#pragma once

#include <cstdint>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/trace/ids.h"

namespace gordian::detect {

struct CounterOp {
  trace::RecordId rec = 0;  // record index
  uint64_t weight = 1;  // units
};

struct CounterResult {
  bool safe = true;         // every decrement can be matched
  bool gave_up = false;     // the graph was too large: nothing is claimed
  trace::RecordId unmatched = 0;  // a decrement that cannot be fully matched (when !safe)
};

// adds and dones in trace order (grouped by goroutine, program order).
CounterResult MatchCounter(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds,
                           const std::vector<CounterOp>& dones, uint64_t max_edges);

// For the message of an unmatched decrement dec: the first of adds
// concurrent with it (one it could overtake), or hb::kNoRecord.
trace::RecordId ConcurrentAdd(const hb::HappensBefore& hb, const std::vector<CounterOp>& adds,
                              trace::RecordId dec);

}  // namespace gordian::detect
