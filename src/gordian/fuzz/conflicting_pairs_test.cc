// Tests of the conflicting-pairs strategy on traces built in memory.
#include "gordian/fuzz/strategies.h"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;
using testing::PosOf;

std::set<std::string> KeysOf(const std::vector<Candidate>& cs) {
  std::set<std::string> k;
  for (const Candidate& c : cs) k.insert(c.key);
  return k;
}

// Three goroutines take one mutex, at a.go:10, a.go:20 and a.go:30 in that
// order.
trace::Trace ThreeLockers() {
  TraceBuilder b;
  uint32_t m = b.NewObject();
  uint32_t unlock = b.Site("a.go", 11);
  uint32_t g2 = b.Go(1), g3 = b.Go(1), g4 = b.Go(1);
  b.At(b.Lock(g2, m), b.Site("a.go", 10));
  b.At(b.Unlock(g2, m), unlock);
  b.At(b.Lock(g3, m), b.Site("a.go", 20));
  b.At(b.Unlock(g3, m), unlock);
  b.At(b.Lock(g4, m), b.Site("a.go", 30));
  b.At(b.Unlock(g4, m), unlock);
  return b.Finish();
}

// Every pair of acquisitions, not only neighbours: the third locker can go
// before the first, which the lock-order strategy (consecutive
// acquisitions) never proposes. Each schedule puts the overtaking one
// first; the keys are the lock-order strategy's words, earliest pair first.
TEST(ConflictingPairs, EveryPairOfALockNotOnlyNeighbours) {
  ConflictingPairs s;
  std::vector<Candidate> out = testing::ProposeFor(s, ThreeLockers());
  std::vector<std::string> keys;
  for (const Candidate& c : out) {
    keys.push_back(c.key);
    EXPECT_EQ(c.strategy, "pairs");
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"lock a.go:20 before a.go:10",
                                            "lock a.go:30 before a.go:10",
                                            "lock a.go:30 before a.go:20"}));
  const schedule::Schedule& third_first = out[1].schedule;
  int first = PosOf(third_first, "a.go:30"), second = PosOf(third_first, "a.go:10");
  ASSERT_GE(first, 0);
  EXPECT_LT(first, second);
}

// Systematic: each run proposes the next pairs no earlier run of the
// campaign proposed, until every pair has been; a new campaign starts over.
TEST(ConflictingPairs, EachPairOncePerCampaignTheNextOnesFirst) {
  trace::Trace t = ThreeLockers();
  ConflictingPairs s;
  s.max_per_run = 1;
  EXPECT_EQ(KeysOf(testing::ProposeFor(s, t)), std::set<std::string>{"lock a.go:20 before a.go:10"});
  EXPECT_EQ(KeysOf(testing::ProposeFor(s, t)), std::set<std::string>{"lock a.go:30 before a.go:10"});
  EXPECT_EQ(KeysOf(testing::ProposeFor(s, t)), std::set<std::string>{"lock a.go:30 before a.go:20"});
  EXPECT_TRUE(testing::ProposeFor(s, t).empty());
  s.Begin();
  EXPECT_EQ(KeysOf(testing::ProposeFor(s, t)), std::set<std::string>{"lock a.go:20 before a.go:10"});
}

// Pairs that something else orders, and two readers, are no conflicts.
TEST(ConflictingPairs, NoPairThatHappensBeforeOrdersOrTwoReaders) {
  TraceBuilder b;
  uint32_t rw = b.NewObject(), ch = b.NewObject(), wg = b.NewObject();
  // The Add before the goroutines start: ordered before the Done.
  b.At(b.WgAdd(1, wg, 1), b.Site("a.go", 30));
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.RLock(g2, rw), b.Site("a.go", 10));
  b.At(b.RLock(g3, rw), b.Site("a.go", 20));
  b.RUnlock(g2, rw);
  b.RUnlock(g3, rw);
  // g2's Done reaches main's Wait: ordered.
  b.At(b.Done(g2, wg), b.Site("a.go", 31));
  b.At(b.Wait(1, wg), b.Site("a.go", 32));
  // One send, one receive: a message orders them.
  b.At(b.Send(g3, ch), b.Site("a.go", 40));
  b.At(b.Recv(1, ch), b.Site("a.go", 41));
  ConflictingPairs s;
  EXPECT_EQ(KeysOf(testing::ProposeFor(s, b.Finish())), std::set<std::string>{});
}

// Two Once callers and two lockers, independent of each other.
trace::Trace OnceAndLock() {
  TraceBuilder b;
  uint32_t once = b.NewObject(), m = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("a.go", 10));
  b.At(b.OnceDo(g3, once, false), b.Site("a.go", 20));
  b.At(b.Lock(g2, m), b.Site("b.go", 10));
  b.Unlock(g2, m);
  b.At(b.Lock(g3, m), b.Site("b.go", 20));
  b.Unlock(g3, m);
  return b.Finish();
}

// A run that followed a reversal and added coverage gets that reversal
// with one more pair of another object reversed, both in the schedule;
// without coverage, or at the depth bound, no deeper one.
TEST(ConflictingPairs, AReversalThatAddedCoverageGetsASecondOne) {
  trace::Trace t = OnceAndLock();
  ConflictingPairs s;
  std::vector<Candidate> first = testing::ProposeFor(s, t);
  ASSERT_EQ(KeysOf(first), (std::set<std::string>{"flip once a.go:20 before once a.go:10",
                                                   "lock b.go:20 before b.go:10"}));
  const Candidate& once_flip = first[0].key.starts_with("flip") ? first[0] : first[1];
  EXPECT_TRUE(testing::ProposeFor(s, t, 1, &once_flip, false).empty());
  std::vector<Candidate> deeper = testing::ProposeFor(s, t, 1, &once_flip, true);
  ASSERT_EQ(deeper.size(), 1u);
  EXPECT_EQ(deeper[0].key,
            "pairs flip once a.go:20 before once a.go:10 + lock b.go:20 before b.go:10");
  const schedule::Schedule& both = deeper[0].schedule;
  ASSERT_GE(PosOf(both, "a.go:20"), 0);
  EXPECT_LT(PosOf(both, "a.go:20"), PosOf(both, "a.go:10"));
  ASSERT_GE(PosOf(both, "b.go:20"), 0);
  EXPECT_LT(PosOf(both, "b.go:20"), PosOf(both, "b.go:10"));
  // max_depth 2: the deeper one is not deepened again.
  EXPECT_TRUE(testing::ProposeFor(s, t, 1, &deeper[0], true).empty());
  // A run without the reversal's operations (another site): none.
  ConflictingPairs other;
  std::vector<Candidate> made = testing::ProposeFor(other, t);
  TraceBuilder b;
  uint32_t once = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.OnceDo(g2, once, true), b.Site("c.go", 1));
  b.At(b.OnceDo(g3, once, false), b.Site("c.go", 2));
  trace::Trace moved = b.Finish();
  other.max_per_run = 0;
  for (const Candidate& c : made) {
    EXPECT_TRUE(testing::ProposeFor(other, moved, 1, &c, true).empty()) << c.key;
  }
}

}  // namespace
}  // namespace gordian::fuzz
