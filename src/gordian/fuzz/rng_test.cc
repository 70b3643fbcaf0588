// Tests of the fuzzer's generator (rng.h): a seed gives one sequence, runs
// get sequences of their own, and Below stays in range and reaches every
// value.
#include "gordian/fuzz/rng.h"

#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::fuzz {
namespace {

std::vector<uint64_t> Draw(Rng r, int n) {
  std::vector<uint64_t> v;
  for (int i = 0; i < n; i++) v.push_back(r.Next());
  return v;
}

TEST(Rng, OneSeedOneSequence) {
  EXPECT_EQ(Draw(Rng(5), 8), Draw(Rng(5), 8));
  EXPECT_NE(Draw(Rng(5), 8), Draw(Rng(6), 8));
}

TEST(Rng, EachRunHasItsOwnSequence) {
  EXPECT_EQ(Draw(Rng::ForRun(5, 3), 8), Draw(Rng::ForRun(5, 3), 8));
  EXPECT_NE(Draw(Rng::ForRun(5, 3), 8), Draw(Rng::ForRun(5, 4), 8));
  EXPECT_NE(Draw(Rng::ForRun(5, 3), 8), Draw(Rng::ForRun(6, 3), 8));
  EXPECT_NE(Draw(Rng::ForRun(0, 0), 8), Draw(Rng::ForRun(0, 1), 8));
}

TEST(Rng, BelowStaysInRangeAndReachesEveryValue) {
  Rng r(11);
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; i++) {
    uint64_t x = r.Below(7);
    ASSERT_LT(x, 7u);
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(r.Below(0), 0u);
  EXPECT_EQ(r.Below(1), 0u);
  for (int i = 0; i < 100; i++) {
    double u = r.Unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace gordian::fuzz
