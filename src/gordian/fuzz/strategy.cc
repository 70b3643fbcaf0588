// This file lists the strategies `gordian fuzz` combines (strategy.h).
#include "gordian/fuzz/strategy.h"

#include "gordian/fuzz/strategies.h"

namespace gordian::fuzz {

std::vector<std::unique_ptr<Strategy>> DefaultStrategies() {
  std::vector<std::unique_ptr<Strategy>> s;
  s.push_back(std::make_unique<PredictionGuided>());
  s.push_back(std::make_unique<PairFlip>());
  s.push_back(std::make_unique<SelectPreference>());
  s.push_back(std::make_unique<DelayPoints>());
  // Last, and fewer new chains per run than it makes alone: the worklist
  // runs proposals first come, first run, so a strategy's share of the
  // runs is its share of the proposals. 4 new chains per run (the delay
  // strategy makes 6), plus up to 4 mutations of a chain that added
  // coverage.
  auto chains = std::make_unique<SchedulingChains>();
  chains->max_per_run = 4;
  s.push_back(std::move(chains));
  // Last: the systematic reversals of every conflicting pair, 4 new ones
  // per run (a pair the lock-order or pair-flip strategy proposed first
  // has its key and runs once), plus up to 4 deeper ones from a reversal
  // that added coverage.
  auto pairs = std::make_unique<ConflictingPairs>();
  pairs->max_per_run = 4;
  s.push_back(std::move(pairs));
  return s;
}

}  // namespace gordian::fuzz
