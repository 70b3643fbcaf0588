// Tests of the default combination of strategies (strategy.cc).
#include "gordian/fuzz/strategy.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategies.h"

namespace gordian::fuzz {
namespace {

// All five strategies, the scheduling chains last (their proposals of a
// run join the worklist after the others') and with fewer new chains per
// run than alone.
TEST(DefaultStrategies, CombineAllFiveChainsLast) {
  std::vector<std::string> names;
  const SchedulingChains* chains = nullptr;
  std::vector<std::unique_ptr<Strategy>> all = DefaultStrategies();
  for (const auto& s : all) {
    names.push_back(s->Name());
    if (auto* c = dynamic_cast<const SchedulingChains*>(s.get())) chains = c;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"prediction", "flip", "select", "delay", "chain"}));
  ASSERT_NE(chains, nullptr);
  EXPECT_LT(chains->max_per_run, SchedulingChains().max_per_run);
  EXPECT_GT(chains->max_per_run, 0u);
}

}  // namespace
}  // namespace gordian::fuzz
