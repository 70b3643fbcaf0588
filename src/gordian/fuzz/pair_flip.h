// This file declares the pair-flip strategy, the first step towards GoPie's
// scheduling chains (a chain of length two, mutated by its flip): two
// operations on the same Once, WaitGroup or Cond by different goroutines
// that took effect one right after the other, and that happens-before
// leaves unordered, in the other order (the later one first, each with its
// past, then a free run). Who runs a Once's function, whether a Wait comes
// before an Add, whether a Signal finds its waiter: each decides which
// branch the program takes next. Channels and locks are the
// prediction-guided strategy's (alternative partners, lock orders).
#pragma once

#include <cstddef>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

class PairFlip final : public Strategy {
 public:
  const char* Name() const override { return "flip"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 128;
};

}  // namespace gordian::fuzz
