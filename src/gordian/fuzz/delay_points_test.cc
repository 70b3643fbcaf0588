// Tests of the delay-point strategy on traces built in memory.
#include "gordian/fuzz/strategies.h"

#include <set>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

// Two goroutines lock one mutex at one site, main locks it at another:
// the points are "m.go:5 #1", "m.go:5 #2" (in the order the goroutines
// reached the site) and "m.go:9 #1"; every proposal names only those,
// with 1 to max_depth points and a bound from waits_ms.
TEST(DelayPoints, PointsAreTheNthOperationAtASite) {
  TraceBuilder b;
  uint32_t m = b.NewObject();
  uint32_t shared = b.Site("m.go", 5), own = b.Site("m.go", 9), unlock = b.Site("m.go", 6);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.Lock(g2, m), shared);
  b.At(b.Unlock(g2, m), unlock);
  b.At(b.Lock(g3, m), shared);
  b.At(b.Unlock(g3, m), unlock);
  b.At(b.Lock(1, m), own);
  b.At(b.Unlock(1, m), unlock);
  trace::Trace t = b.Finish();
  DelayPoints s;
  s.per_run = 200;
  s.max_depth = 2;
  s.waits_ms = {70};
  std::vector<Candidate> out = testing::ProposeFor(s, t, /*seed=*/42);
  ASSERT_EQ(out.size(), 200u);
  std::set<std::string> seen;
  std::set<size_t> depths;
  for (const Candidate& c : out) {
    EXPECT_EQ(c.strategy, "delay");
    EXPECT_TRUE(c.schedule.ops.empty());
    ASSERT_GE(c.schedule.delays.size(), 1u);
    ASSERT_LE(c.schedule.delays.size(), 2u);
    depths.insert(c.schedule.delays.size());
    for (const schedule::Delay& d : c.schedule.delays) {
      EXPECT_EQ(d.wait_ms, 70u);
      seen.insert(d.site + "#" + std::to_string(d.nth));
    }
    schedule::Schedule back;
    std::string err;
    ASSERT_TRUE(schedule::ParseSchedule(schedule::FormatSchedule(c.schedule), &back, &err)) << err;
    EXPECT_EQ(back.delays.size(), c.schedule.delays.size());
  }
  EXPECT_EQ(seen, (std::set<std::string>{"m.go:5#1", "m.go:5#2", "m.go:6#1", "m.go:6#2",
                                         "m.go:6#3", "m.go:9#1"}));
  EXPECT_EQ(depths, (std::set<size_t>{1, 2}));
}

// The run's generator decides: the same seed proposes the same points,
// another seed other ones; a run without controlled operations at user
// sites, nothing.
TEST(DelayPoints, SeededAndNothingWithoutPoints) {
  TraceBuilder b;
  uint32_t m = b.NewObject();
  b.At(b.Lock(1, m), b.Site("m.go", 5));
  b.At(b.Unlock(1, m), b.Site("m.go", 6));
  b.At(b.Lock(1, m), b.Site("m.go", 7));
  b.At(b.Unlock(1, m), b.Site("m.go", 8));
  trace::Trace t = b.Finish();
  DelayPoints s;
  auto keys = [&](uint64_t seed) {
    std::vector<std::string> k;
    for (const Candidate& c : testing::ProposeFor(s, t, seed)) k.push_back(c.key);
    return k;
  };
  EXPECT_EQ(keys(7), keys(7));
  EXPECT_NE(keys(7), keys(8));
  TraceBuilder e;
  e.Go(1);
  EXPECT_TRUE(testing::ProposeFor(s, e.Finish(), 7).empty());
}

}  // namespace
}  // namespace gordian::fuzz
