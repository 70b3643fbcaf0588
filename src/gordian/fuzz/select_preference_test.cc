// Tests of the select-preference strategy on traces built in memory.
#include "gordian/fuzz/select_preference.h"

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

std::vector<Candidate> Propose(const trace::Trace& t) {
  SelectPreference s;
  return testing::ProposeFor(s, t);
}

// A select of three cases took case 1: the other two are each preferred in
// a schedule of their own, without a prefix.
TEST(SelectPreference, EachOtherCaseOfAnExecutedSelect) {
  TraceBuilder b;
  uint32_t a = b.NewObject(), c = b.NewObject(), d = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Send(g2, c);
  b.At(b.Select(1, {{a, false}, {c, false}, {d, true}}, 1), b.Site("a.go", 12));
  std::vector<Candidate> out = Propose(b.Finish());
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
  std::vector<Candidate> out = Propose(b.Finish());
  std::vector<std::string> keys;
  for (const Candidate& k : out) keys.push_back(k.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"prefer loop.go:7 case 1", "prefer def.go:3 case 0",
                                            "prefer def.go:3 case 1"}));
}

}  // namespace
}  // namespace gordian::fuzz
