// This file decides, before the happens-before engine runs, which records'
// clocks no bug or warning detector will read (issue 12, "clocks on
// demand"; docs/analysis-needs.md). The engine stores no clock for those
// (hb::HbOptions::unneeded): they freeze nothing and cost no clock nodes,
// which is most of the engine's memory on traces where thousands of
// goroutines take a few mutexes or feed one channel.
//
// Every detector asks only Before(a, b), which reads b's pre clock (a's
// side is its epoch, from the index). So a record needs a clock when it can
// be the b of some detector's question. Whole objects are exempt, and only
// channels, mutexes and RWMutexes with more than `min_ops` operations (the
// ones whose clocks fill memory), and only when none of these holds:
//   - an operation on it never completed, or failed (panicked, unlock of
//     unlocked): leaks and partner search, occurred misuse;
//   - it is a channel that is closed (send/receive on closed), that a
//     select has a case on (select leak), or that more than one goroutine
//     receives from (concurrent receives);
//   - it is a lock that some goroutine unlocks without holding it
//     (unlock of unlocked), that is locked again while held, or while
//     which is held its goroutine does anything else but unlock it; or it
//     is an object operated on while its goroutine holds a lock (lock
//     order, mixed deadlock, recursive read lock: they ask about nested
//     requests and the channel operations done under a lock);
//   - an operation on it was in progress when a test ended (a goroutine
//     blocked at a test's end is a leak candidate).
// Lost by design on exempt objects: the information findings (message and
// lock contention, alternative partners), which compare operations across
// the whole object; and the rewrite of a prediction into a schedule, which
// reads the clocks of every operation in the bug's past: the analysis
// builds the engine again with every clock before it confirms
// (pipeline/analyze_trace.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gordian/hb/op_index.h"

namespace gordian::detect {

// The objects smaller than this keep every clock: their clocks are cheap,
// and the information findings about them stay exact. (op_runs.h's
// kSample: an object up to that size is not sampled either.)
inline constexpr uint32_t kClockNeedsMinOps = 4096;

struct ClockNeeds {
  // 1 for each record no detector reads the clock of (null: none).
  std::shared_ptr<const std::vector<uint8_t>> unneeded;
  uint64_t records = 0;  // how many
  uint32_t objects = 0;  // on how many objects
};

ClockNeeds UnneededClocks(const hb::OpIndex& ops, uint32_t min_ops = kClockNeedsMinOps);

}  // namespace gordian::detect
