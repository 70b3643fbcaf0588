// Tests of the scheduling-chains strategy on traces built in memory.
#include "gordian/fuzz/strategies.h"

#include <algorithm>
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

// Three goroutines call Do on one Once; a.go:10 ran the function.
trace::Trace ThreeOnceCallers() {
  TraceBuilder b;
  uint32_t once = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1), g4 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("a.go", 10));
  b.At(b.OnceDo(g3, once, false), b.Site("a.go", 20));
  b.At(b.OnceDo(g4, once, false), b.Site("a.go", 30));
  return b.Finish();
}

// Three goroutines call Do on one Once (a.go:10 ran the function); every
// chain orders two or three of the calls, some order the run did not
// take, and its schedule puts them in the key's order.
TEST(SchedulingChains, ChainsOfTheCallersOfAOnce) {
  trace::Trace t = ThreeOnceCallers();
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
  EXPECT_TRUE(testing::DefaultProposals<SchedulingChains>(b.Finish()).empty());
}

// A proposed schedule names its chain: one "chain" line per operation of
// the key, in its order, each the goroutine and index of the prefix's
// operation at that site; the lines survive the text format.
TEST(SchedulingChains, AScheduleNamesItsChain) {
  trace::Trace t = ThreeOnceCallers();
  SchedulingChains chains;
  std::vector<Candidate> out = testing::ProposeFor(chains, t, 3);
  ASSERT_FALSE(out.empty());
  for (const Candidate& c : out) {
    std::vector<std::string> sites = SitesOf(c.key);
    ASSERT_EQ(c.schedule.chain.size(), sites.size()) << c.key;
    for (size_t i = 0; i < sites.size(); i++) {
      const schedule::ChainOp& co = c.schedule.chain[i];
      auto op = std::find_if(c.schedule.ops.begin(), c.schedule.ops.end(),
                             [&](const schedule::Op& o) { return o.g == co.g && o.index == co.index; });
      ASSERT_NE(op, c.schedule.ops.end()) << c.key;
      EXPECT_EQ(op->site, sites[i]) << c.key;
    }
    schedule::Schedule back;
    std::string err;
    ASSERT_TRUE(schedule::ParseSchedule(schedule::FormatSchedule(c.schedule), &back, &err)) << err;
    ASSERT_EQ(back.chain.size(), c.schedule.chain.size());
    EXPECT_EQ(back.chain[0].g, c.schedule.chain[0].g);
    EXPECT_EQ(back.chain[0].index, c.schedule.chain[0].index);
  }
}

// The chain of a schedule whose run added coverage (or that came from the
// corpus) is found again in that run and mutated further; with no new
// chains allowed (max_per_run 0) those mutations are all that is
// proposed. A run of a chain that added nothing, or of a free run, gives
// none.
TEST(SchedulingChains, AChainThatAddedCoverageIsMutatedFurther) {
  trace::Trace t = ThreeOnceCallers();
  SchedulingChains fresh;
  std::vector<Candidate> made = testing::ProposeFor(fresh, t, 3);
  ASSERT_FALSE(made.empty());
  const Candidate& kept = made[0];
  // The run that followed it: the same goroutines and sites (the chain's
  // operations are found by goroutine, index, kind and site).
  SchedulingChains again;
  again.max_per_run = 0;
  size_t proposals = 0;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    for (const Candidate& c : testing::ProposeFor(again, t, seed, &kept, true)) {
      proposals++;
      EXPECT_EQ(c.strategy, "chain");
      EXPECT_FALSE(c.schedule.chain.empty()) << c.key;
    }
  }
  EXPECT_GT(proposals, 0u);
  Candidate from_corpus = kept;
  from_corpus.strategy = "corpus";
  EXPECT_FALSE(testing::ProposeFor(again, t, 1, &from_corpus, false).empty());
  EXPECT_TRUE(testing::ProposeFor(again, t, 1, &kept, false).empty());
  Candidate free;
  free.strategy = "free";
  free.schedule.goroutines = {"1"};
  EXPECT_TRUE(testing::ProposeFor(again, t, 1, &free, true).empty());
  // A chain whose operations the run does not have (another site): none.
  Candidate moved = kept;
  for (schedule::Op& op : moved.schedule.ops) op.site = "b.go:1";
  EXPECT_TRUE(testing::ProposeFor(again, t, 1, &moved, true).empty());
}

}  // namespace
}  // namespace gordian::fuzz
