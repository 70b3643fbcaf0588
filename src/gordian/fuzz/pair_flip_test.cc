// Tests of the pair-flip strategy on traces built in memory.
#include "gordian/fuzz/strategies.h"

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;
using testing::PosOf;

// 1.0 ran the Once's function, 1.1 came second: the flip lets 1.1 call Do
// first (it then runs the function).
TEST(PairFlip, TheOtherCallerRunsTheOnce) {
  TraceBuilder b;
  uint32_t once = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("a.go", 10));
  b.At(b.OnceDo(g3, once, false), b.Site("a.go", 20));
  std::vector<Candidate> out = testing::DefaultProposals<PairFlip>(b.Finish());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].key, "flip once a.go:20 before once a.go:10");
  EXPECT_EQ(out[0].strategy, "flip");
  int first = PosOf(out[0].schedule, "a.go:20"), second = PosOf(out[0].schedule, "a.go:10");
  ASSERT_GE(first, 0);
  EXPECT_LT(first, second);
}

// A Done that the Wait depends on is not flipped with it: happens-before
// orders them.
TEST(PairFlip, NothingToFlipWhenHappensBeforeOrdersThePair) {
  TraceBuilder b;
  uint32_t wg = b.NewObject();
  b.At(b.WgAdd(1, wg, 1), b.Site("a.go", 5));
  uint32_t g2 = b.Go(1);
  b.At(b.Done(g2, wg), b.Site("a.go", 10));
  b.At(b.Wait(1, wg), b.Site("a.go", 20));
  EXPECT_TRUE(testing::DefaultProposals<PairFlip>(b.Finish()).empty());
}

}  // namespace
}  // namespace gordian::fuzz
