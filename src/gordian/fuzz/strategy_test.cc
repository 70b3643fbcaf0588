// Tests of the default combination of strategies (strategy.cc).
#include "gordian/fuzz/strategy.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategies.h"

namespace gordian::fuzz {
namespace {

// All six strategies, the scheduling chains and the conflicting pairs last
// (their proposals of a run join the worklist after the others'), each
// with fewer new proposals per run than alone.
TEST(DefaultStrategies, CombineAllSixChainsAndPairsLast) {
  std::vector<std::string> names;
  const SchedulingChains* chains = nullptr;
  const ConflictingPairs* pairs = nullptr;
  std::vector<std::unique_ptr<Strategy>> all = DefaultStrategies();
  for (const auto& s : all) {
    names.push_back(s->Name());
    if (auto* c = dynamic_cast<const SchedulingChains*>(s.get())) chains = c;
    if (auto* p = dynamic_cast<const ConflictingPairs*>(s.get())) pairs = p;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"prediction", "flip", "select", "delay", "chain", "pairs"}));
  ASSERT_NE(chains, nullptr);
  EXPECT_LT(chains->max_per_run, SchedulingChains().max_per_run);
  EXPECT_GT(chains->max_per_run, 0u);
  ASSERT_NE(pairs, nullptr);
  EXPECT_LT(pairs->max_per_run, ConflictingPairs().max_per_run);
  EXPECT_GT(pairs->max_per_run, 0u);
}

}  // namespace
}  // namespace gordian::fuzz
