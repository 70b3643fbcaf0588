// This file lists the strategies `gordian fuzz` combines (strategy.h).
#include "gordian/fuzz/strategy.h"

#include "gordian/fuzz/delay_points.h"
#include "gordian/fuzz/pair_flip.h"
#include "gordian/fuzz/prediction_guided.h"
#include "gordian/fuzz/scheduling_chains.h"
#include "gordian/fuzz/select_preference.h"

namespace gordian::fuzz {

std::vector<std::unique_ptr<Strategy>> DefaultStrategies() {
  std::vector<std::unique_ptr<Strategy>> s;
  s.push_back(std::make_unique<PredictionGuided>());
  s.push_back(std::make_unique<PairFlip>());
  s.push_back(std::make_unique<SelectPreference>());
  s.push_back(std::make_unique<DelayPoints>());
  return s;
}

std::vector<std::unique_ptr<Strategy>> OptionalStrategies() {
  std::vector<std::unique_ptr<Strategy>> s;
  s.push_back(std::make_unique<SchedulingChains>());
  return s;
}

}  // namespace gordian::fuzz
