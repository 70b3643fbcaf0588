// This file declares the delay-point strategy (PCT-style, with a depth):
// from the controlled operations a run executed it picks `depth` random
// points, each "the n-th operation at site S" counted over all goroutines
// in the order they reached S, and proposes a schedule without a prefix
// whose "delay" lines hold the goroutine that reaches each point until the
// others are blocked or asleep, or a bounded time has passed
// (docs/schedule-format.md). A goroutine that is slow at that moment lets
// the others run between its check and its act: check-then-act on len(ch)
// or on a flag read under a lock, which no trace records and no prediction
// reorders, then goes wrong. Random: the points come from the run's
// generator (AnalysedRun::rng, seeded by gordian fuzz -seed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

class DelayPoints final : public Strategy {
 public:
  const char* Name() const override { return "delay"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t per_run = 6;     // proposals from one run
  uint32_t max_depth = 3; // points per proposal: 1 to max_depth (PCT's d)
  // The bound of a hold (a delay line's WAIT_MS), one of these at random:
  // short holds cost little, long ones outlast a sleeping goroutine.
  std::vector<uint32_t> waits_ms = {50, 300, 1500};
};

}  // namespace gordian::fuzz
