// Tests of the select-preference strategy on traces built in memory.
#include "gordian/fuzz/strategies.h"

#include <set>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

// A select of three cases took case 1: the other two are each preferred in
// a schedule of their own, without a prefix.
TEST(SelectPreference, EachOtherCaseOfAnExecutedSelect) {
  TraceBuilder b;
  uint32_t a = b.NewObject(), c = b.NewObject(), d = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Send(g2, c);
  b.At(b.Select(1, {{a, false}, {c, false}, {d, true}}, 1), b.Site("a.go", 12));
  std::vector<Candidate> out = testing::DefaultProposals<SelectPreference>(b.Finish());
  ASSERT_EQ(out.size(), 2u);
  for (size_t i = 0; i < 2; i++) {
    int want = i == 0 ? 0 : 2;
    EXPECT_EQ(out[i].key, "prefer a.go:12 case " + std::to_string(want));
    EXPECT_EQ(out[i].strategy, "select");
    EXPECT_TRUE(out[i].schedule.ops.empty());
    ASSERT_EQ(out[i].schedule.prefers.size(), 1u);
    EXPECT_EQ(out[i].schedule.prefers[0].choice, want);
    EXPECT_EQ(out[i].schedule.prefers[0].site, "a.go:12");
    EXPECT_GT(out[i].schedule.prefers[0].wait_ms, 0u);
    // What the strategy writes, the runtime's grammar accepts.
    schedule::Schedule back;
    std::string err;
    ASSERT_TRUE(schedule::ParseSchedule(schedule::FormatSchedule(out[i].schedule), &back, &err))
        << err;
    ASSERT_EQ(back.prefers.size(), 1u);
    EXPECT_EQ(back.prefers[0].choice, want);
  }
}

// A select in a loop is proposed once per case; a select that took its
// default gets every case; one that never finished, none.
TEST(SelectPreference, OncePerSiteAndCaseAndOnlyFinishedSelects) {
  TraceBuilder b;
  uint32_t a = b.NewObject(), c = b.NewObject();
  uint32_t site = b.Site("loop.go", 7);
  uint32_t g2 = b.Go(1);
  for (int i = 0; i < 3; i++) {
    b.Send(g2, a);
    b.At(b.Select(1, {{a, false}, {c, false}}, 0), site);
  }
  b.At(b.Select(1, {{a, false}, {c, false}}, -1, true), b.Site("def.go", 3));
  b.At(b.Select(1, {{a, false}, {c, false}}, -2), b.Site("stuck.go", 4));
  std::vector<Candidate> out = testing::DefaultProposals<SelectPreference>(b.Finish());
  std::vector<std::string> keys;
  for (const Candidate& k : out) keys.push_back(k.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"prefer loop.go:7 case 1", "prefer def.go:3 case 0",
                                            "prefer def.go:3 case 1"}));
}


// Two select sites: a.go:12 took case 1 of three, b.go:20 took case 0 of
// two.
trace::Trace TwoSelects() {
  TraceBuilder b;
  uint32_t a = b.NewObject(), c = b.NewObject(), d = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Send(g2, c);
  b.At(b.Select(1, {{a, false}, {c, false}, {d, true}}, 1), b.Site("a.go", 12));
  b.Send(g2, a);
  b.At(b.Select(1, {{a, false}, {d, false}}, 0), b.Site("b.go", 20));
  return b.Finish();
}

// The candidates of proposals whose key is not a single preference of
// their own (the mutations of the schedule the run followed).
std::vector<Candidate> Mutations(const std::vector<Candidate>& out) {
  std::vector<Candidate> m;
  for (const Candidate& c : out) {
    if (c.schedule.prefers.size() != 1 || !c.schedule.ops.empty() ||
        c.schedule.prefers[0].wait_ms != SelectPreference().wait_ms) {
      m.push_back(c);
    }
  }
  return m;
}

// A prediction's prefix that added coverage gets preferences for the free
// run after it: the same prefix, one or two prefer lines at the run's
// selects, and a key that names both.
TEST(SelectPreference, APrefixThatAddedCoverageGetsPreferences) {
  trace::Trace t = TwoSelects();
  Candidate ran;
  ran.key = "partner recv a.go:30 <- send a.go:20";
  ran.strategy = "prediction";
  ran.schedule.goroutines = {"1", "1.0"};
  schedule::Op op;
  op.g = 1;
  op.kind = trace::Kind::ChanSend;
  op.site = "a.go:20";
  ran.schedule.ops.push_back(op);
  size_t with_prefix = 0;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    SelectPreference s;
    for (const Candidate& c : Mutations(testing::ProposeFor(s, t, seed, &ran, true))) {
      ASSERT_EQ(c.schedule.ops.size(), 1u) << c.key;
      EXPECT_EQ(c.schedule.ops[0].site, "a.go:20");
      ASSERT_FALSE(c.schedule.prefers.empty()) << c.key;
      EXPECT_EQ(c.key.rfind(ran.key + " + prefer ", 0), 0u) << c.key;
      for (const schedule::Preference& p : c.schedule.prefers) {
        EXPECT_TRUE(p.site == "a.go:12" || p.site == "b.go:20") << p.site;
      }
      with_prefix++;
    }
  }
  EXPECT_GT(with_prefix, 0u);
  // The same run, but it added nothing: only the single preferences.
  SelectPreference s;
  EXPECT_TRUE(Mutations(testing::ProposeFor(s, t, 1, &ran, false)).empty());
}

// A preference that added coverage grows into a set (both selects
// preferred, each with a case of its own), changes its case or its wait;
// every proposal has distinct keys, parses back, and is not the schedule
// it came from.
TEST(SelectPreference, APreferenceThatAddedCoverageBecomesASet) {
  trace::Trace t = TwoSelects();
  Candidate ran;
  ran.key = "prefer a.go:12 case 0";
  ran.strategy = "select";
  ran.schedule.goroutines = {"1"};
  ran.schedule.prefers.push_back(schedule::Preference{0, SelectPreference().wait_ms, "a.go:12"});
  bool set = false, other_case = false, other_wait = false;
  for (uint64_t seed = 1; seed <= 16; seed++) {
    SelectPreference s;
    std::set<std::string> keys;
    for (const Candidate& c : Mutations(testing::ProposeFor(s, t, seed, &ran, true))) {
      EXPECT_TRUE(keys.insert(c.key).second) << c.key;
      EXPECT_NE(c.key, ran.key);
      EXPECT_TRUE(c.schedule.ops.empty());
      std::set<std::string> sites;
      for (const schedule::Preference& p : c.schedule.prefers) {
        EXPECT_TRUE(sites.insert(p.site).second) << "one preference per select: " << c.key;
        if (p.site == "a.go:12" && p.choice != 0) other_case = true;
        if (p.wait_ms != SelectPreference().wait_ms) other_wait = true;
      }
      set |= sites.size() == 2;
      schedule::Schedule back;
      std::string err;
      ASSERT_TRUE(schedule::ParseSchedule(schedule::FormatSchedule(c.schedule), &back, &err)) << err;
      EXPECT_EQ(back.prefers.size(), c.schedule.prefers.size());
    }
  }
  EXPECT_TRUE(set) << "a set of two preferences";
  EXPECT_TRUE(other_case) << "another case of the preferred select";
  EXPECT_TRUE(other_wait) << "a longer or shorter wait";
}

}  // namespace
}  // namespace gordian::fuzz
