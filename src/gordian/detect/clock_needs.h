// This file decides, before the happens-before engine runs, which records'
// clocks no bug or warning detector will read (docs/analysis-needs.md,
// "Clocks on demand"). The engine stores no clock for those
// (hb::HbOptions::unneeded): they freeze nothing and cost no clock nodes,
// which is most of the engine's memory on traces where thousands of
// goroutines take a few mutexes or feed one channel.
//
// Every detector asks only Before(a, b), which reads b's pre clock (a's
// side is its epoch, from the index). So a record needs a clock when it can
// be the b of some detector's question. Only channels, mutexes and
// RWMutexes with more than `min_ops` operations (the ones whose clocks fill
// memory) lose clocks. A lock keeps all of its clocks or none; it keeps
// them when
//   - an operation on it never completed or failed, or was in progress
//     when a test ended (leaks, occurred misuse);
//   - some goroutine unlocks it without holding it (unlock of unlocked),
//     or locks it again while holding it.
// Lock order, mixed deadlock and recursive read lock ask their questions
// of the engine without lock edges, which keeps the clocks of just the
// acquisitions they ask about (predicted/weak_unneeded.cc), not of this
// engine.
// A channel keeps the clocks of the records some detector asks about as b
// (docs/analysis-needs.md, "Which records are b"):
//   - an operation that never completed, or was in progress when a test
//     ended (leaks' partner search: Before(y, x) of the stuck x), one that
//     failed or saw the channel closed, and every close;
//   - on a closed channel, a plain send that started after the first close
//     completed (send on closed asks Before(close, send) only of those),
//     and, when some receive saw the close, every receive that got a value
//     (recv on closed: Concurrent(value receive, receive of the close));
//   - on an unbuffered channel, a plain operation whose partner is a
//     select case (select leak: Before(y, x)), and, on the channels of that
//     select's other cases, the operations of the direction that could
//     make the case ready (Before(select, y));
//   - the first 64 receives at each site of a channel received from at
//     two sites or more (concurrent receives);
//   - an operation done while its goroutine holds a lock (mixed deadlock's
//     partner search, which asks this engine).
// A channel of which some record keeps its clock keeps its first record's
// too: detect/predicted/predict_context.h's Unclocked() looks at the first
// record to tell a wholly exempt object, which the detectors skip. A select
// case stands for its select: the select keeps its clock when one of its
// cases does, when it is stuck, when a select leak may ask about it (it
// met a plain operation and may have had another case), or when one of its
// channels is small. Records of no object (spawns, goroutine starts and
// ends, tests, panics) need none: no detector asks about them; but a
// TestEnd keeps its clock when the trace has a TestCall (testing after end
// asks Before(call, TestEnd)).
// Not refined: WaitGroups (negative WaitGroup reads every Done's clock and,
// for the report, the Adds'), Once, Cond keep every clock.
// Lost by design on exempt records: the information findings (message and
// lock contention, alternative partners, select alternatives), which
// compare operations across the whole object; and the rewrite of a prediction into a schedule, which
// reads the clocks of every operation in the bug's past: the analysis
// builds the engine again with every clock before it confirms
// (pipeline/analyze_trace.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/hb/record_mask.h"

namespace gordian::detect {

// The objects smaller than this keep every clock: their clocks are cheap,
// and the information findings about them stay exact. (op_runs.h's
// kSample: an object up to that size is not sampled either.)
inline constexpr uint32_t kClockNeedsMinOps = 4096;

struct ClockNeeds {
  // Set for each record no detector reads the clock of (null: none).
  std::shared_ptr<const hb::RecordMask> unneeded;
  uint64_t records = 0;    // how many
  uint64_t no_object = 0;  // of them, records of no object (spawns, starts, ends, selects...)
  uint32_t objects = 0;    // on how many objects (wholly or in part)
};

ClockNeeds UnneededClocks(const hb::OpIndex& ops, uint32_t min_ops = kClockNeedsMinOps);

}  // namespace gordian::detect
