// Tests of the scheduling-chains strategy on traces built in memory.
#include "gordian/fuzz/scheduling_chains.h"

#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;
using testing::PosOf;

// The sites a chain's key names, in its order ("chain once a.go:20 then
// once a.go:10" -> a.go:20, a.go:10).
std::vector<std::string> SitesOf(const std::string& key) {
  std::vector<std::string> out;
  std::istringstream in(key);
  std::string w;
  while (in >> w) {
    if (w.find(".go:") != std::string::npos) out.push_back(w);
  }
  return out;
}

// Three goroutines call Do on one Once (a.go:10 ran the function); every
// chain orders two or three of the calls, some order the run did not
// take, and its schedule puts them in the key's order.
TEST(SchedulingChains, ChainsOfTheCallersOfAOnce) {
  TraceBuilder b;
  uint32_t once = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1), g4 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("a.go", 10));
  b.At(b.OnceDo(g3, once, false), b.Site("a.go", 20));
  b.At(b.OnceDo(g4, once, false), b.Site("a.go", 30));
  trace::Trace t = b.Finish();
  std::set<std::string> keys;
  bool three = false;
  for (uint64_t seed = 1; seed <= 8; seed++) {
    SchedulingChains chains;
    for (const Candidate& c : testing::ProposeFor(chains, t, seed)) {
      EXPECT_EQ(c.strategy, "chain");
      std::vector<std::string> sites = SitesOf(c.key);
      ASSERT_GE(sites.size(), 2u) << c.key;
      three |= sites.size() == 3;
      bool reorders = false;
      for (size_t i = 1; i < sites.size(); i++) {
        int before = PosOf(c.schedule, sites[i - 1]), after = PosOf(c.schedule, sites[i]);
        ASSERT_GE(before, 0) << c.key;
        EXPECT_LT(before, after) << c.key;
        reorders |= sites[i - 1] > sites[i];  // the run's order is the sites' order
      }
      for (size_t i = 2; i < sites.size(); i++) reorders |= sites[i - 2] > sites[i];
      EXPECT_TRUE(reorders) << c.key;
      keys.insert(c.key);
    }
  }
  EXPECT_TRUE(three) << "augment makes chains of three";
  EXPECT_TRUE(keys.count("chain once a.go:20 then once a.go:10") ||
              keys.count("chain once a.go:30 then once a.go:20"))
      << "a flip of the run's neighbours";
  EXPECT_GE(keys.size(), 4u);
}

// The same seed, the same chains; the proposals of one run have distinct
// keys.
TEST(SchedulingChains, TheRunsGeneratorDecides) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 3);
  uint32_t g2 = b.Go(1), g3 = b.Go(1), g4 = b.Go(1);
  b.At(b.Send(g2, ch), b.Site("a.go", 10));
  b.At(b.Send(g3, ch), b.Site("a.go", 20));
  b.At(b.Send(g4, ch), b.Site("a.go", 30));
  trace::Trace t = b.Finish();
  SchedulingChains x, y;
  std::vector<Candidate> a = testing::ProposeFor(x, t, 5), c = testing::ProposeFor(y, t, 5);
  ASSERT_FALSE(a.empty());
  ASSERT_EQ(a.size(), c.size());
  std::set<std::string> keys;
  for (size_t i = 0; i < a.size(); i++) {
    EXPECT_EQ(a[i].key, c[i].key);
    EXPECT_TRUE(keys.insert(a[i].key).second) << a[i].key;
  }
}

// Happens-before orders every pair (each Do's goroutine is spawned after
// the one before has done it): nothing to chain.
TEST(SchedulingChains, NothingWhenHappensBeforeOrdersEveryPair) {
  TraceBuilder b;
  uint32_t once = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("a.go", 10));
  uint32_t g3 = b.Go(g2);
  b.At(b.OnceDo(g3, once, false), b.Site("a.go", 20));
  SchedulingChains chains;
  EXPECT_TRUE(testing::ProposeFor(chains, b.Finish()).empty());
}

}  // namespace
}  // namespace gordian::fuzz
