// Tests of de-duplication and ordering (dedup.h).
#include "gordian/report/dedup.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "gordian/report/report_test_util.h"

namespace gordian::report {
namespace {

using testing::Leak;
using testing::Loc;
using testing::SendOnClosed;

TEST(Dedup, SameBugFromSeveralGoroutinesIsReportedOnce) {
  std::vector<Finding> fs;
  for (int i = 0; i < 5; i++) {
    fs.push_back(Leak("a.go", 10, "1." + std::to_string(i), Primitive::ChanSend));
    // Leaks of one site differ in their partners: still one bug.
    fs.back().locations.push_back(Loc("a.go", 30 + static_cast<uint32_t>(i), Role::Recv, "1"));
  }
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].occurrences, 5u);
  EXPECT_EQ(fs[0].goroutines.size(), 5u);
  EXPECT_EQ(fs[0].locations.size(), 6u);  // the leak site and five partner sites
}

TEST(Dedup, RecordsStayParallelToLocations) {
  Finding a = Leak("a.go", 10, "1.0", Primitive::ChanSend);
  a.locations.push_back(Loc("a.go", 20, Role::Recv, "1"));
  a.records = {5, 6};
  Finding b = Leak("a.go", 10, "1.1", Primitive::ChanSend);
  b.locations.push_back(Loc("a.go", 21, Role::Recv, "1"));
  b.records = {7, 8};
  std::vector<Finding> fs = {a, b};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].records, (std::vector<uint32_t>{5, 6, 8}));
  EXPECT_EQ(fs[0].locations.size(), 3u);
  // Without records on one side they no longer mean anything.
  b.records.clear();
  fs = {a, b};
  Dedup(&fs);
  EXPECT_TRUE(fs[0].records.empty());
}

TEST(Dedup, DifferentPrimitivesOrSitesStaySeparate) {
  std::vector<Finding> fs = {Leak("a.go", 10, "1.0", Primitive::ChanSend),
                             Leak("a.go", 11, "1.1", Primitive::ChanSend),
                             Leak("a.go", 10, "1.2", Primitive::Select)};
  Dedup(&fs);
  EXPECT_EQ(fs.size(), 3u);
}

TEST(Dedup, OtherLocationsArePartOfTheKeyForNonLeaks) {
  Finding a = SendOnClosed(), b = SendOnClosed();
  b.locations[1].line = 25;  // closed elsewhere: a different bug
  std::vector<Finding> fs = {a, b, SendOnClosed()};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 2u);
  EXPECT_EQ(fs[0].occurrences + fs[1].occurrences, 3u);
}

TEST(Dedup, OccurredWinsOverPredictedOfTheSameSite) {
  Finding pred = SendOnClosed();
  pred.status = Status::Predicted;
  pred.locations[1].line = 33;  // the prediction names another close
  pred.test = "TestOther";
  std::vector<Finding> fs = {pred, SendOnClosed()};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, Status::Occurred);
  ASSERT_EQ(fs[0].other_tests.size(), 1u);
  EXPECT_EQ(fs[0].other_tests[0], "TestOther");
}

TEST(Dedup, OrderIsByFileLineKind) {
  Finding z = SendOnClosed("z/");
  Finding a10 = Leak("a.go", 10, "1.0", Primitive::ChanSend);
  Finding a2 = Leak("a.go", 2, "1.0", Primitive::ChanSend);
  Finding a10b = SendOnClosed("");
  a10b.locations[0].file = "a.go";
  a10b.locations[0].line = 10;
  std::vector<Finding> fs = {z, a10, a10b, a2};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 4u);
  EXPECT_EQ(fs[0].locations[0].line, 2u);
  EXPECT_EQ(fs[1].kind, FindingKind::SendOnClosed);  // a.go:10, kind order
  EXPECT_EQ(fs[2].kind, FindingKind::GoroutineLeak);
  EXPECT_EQ(fs[3].locations[0].file, "z/hub.go");
  // Deterministic: the same input in another order gives the same output.
  std::vector<Finding> again = {a2, a10b, z, a10};
  Dedup(&again);
  for (size_t i = 0; i < fs.size(); i++) EXPECT_EQ(DedupKey(fs[i]), DedupKey(again[i]));
}

// One deadlock, one finding: a global deadlock that blocks the very same
// operations as a mixed deadlock of the same test is folded into the mixed
// one (the more specific kind), which names it under `also`; one that
// blocks more operations stays a finding of its own.
TEST(Dedup, AGlobalDeadlockOfTheSameBlockedSetIsFoldedIntoTheSpecificKind) {
  auto blocked = [](const std::string& g, uint32_t line) {
    Step s;
    s.loc.file = "m.go";
    s.loc.line = line;
    s.loc.goroutine = g;
    s.blocks = true;
    return s;
  };
  Finding mixed;
  mixed.kind = FindingKind::MixedDeadlock;
  mixed.status = Status::Confirmed;
  mixed.test = "TestX";
  mixed.locations = {blocked("1.0", 10).loc, blocked("1.1", 20).loc};
  mixed.interleaving = {blocked("1.0", 10), blocked("1.1", 20)};
  Finding global = mixed;
  global.kind = FindingKind::GlobalDeadlock;
  global.status = Status::Occurred;
  std::vector<Finding> fs = {global, mixed};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].kind, FindingKind::MixedDeadlock);
  EXPECT_EQ(fs[0].also, std::vector<std::string>{"global-deadlock"});
  EXPECT_EQ(fs[0].status, Status::Occurred) << "the blocked set did happen";

  Finding bigger = global;
  bigger.interleaving.push_back(blocked("1.2", 30));
  bigger.locations.push_back(blocked("1.2", 30).loc);
  fs = {bigger, mixed};
  Dedup(&fs);
  EXPECT_EQ(fs.size(), 2u) << "a global deadlock of more goroutines is another finding";
}

TEST(Dedup, TheMergedFindingIsNamedByTheTestItsReproduceReplays) {
  // The same leak in three tests; only TestB's replay reproduced it. The
  // finding reports TestB, whose schedule its reproduce command replays.
  auto leak = [](const std::string& test, const std::string& reproduce) {
    Finding f = testing::SendOnClosed();
    f.kind = FindingKind::GoroutineLeak;
    f.test = test;
    f.reproduce = reproduce;
    return f;
  };
  std::vector<Finding> fs = {leak("TestA", ""), leak("TestB", "gordian replay b.sched"), leak("TestC", "")};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].test, "TestB");
  EXPECT_EQ(fs[0].reproduce, "gordian replay b.sched");
  std::vector<std::string> others = fs[0].other_tests;
  std::sort(others.begin(), others.end());
  EXPECT_EQ(others, (std::vector<std::string>{"TestA", "TestC"}));
}

TEST(Dedup, ARefutedFindingDoesNotNameTheFindingThatStands) {
  // The same deadlock from two models: one no test reaches (predicted, no
  // test), one refuted on TestZ. The warning that stands names no test.
  Finding standing = testing::SendOnClosed();
  standing.status = Status::Predicted;
  standing.test = "";
  Finding refuted = testing::SendOnClosed();
  refuted.status = Status::Unconfirmed;
  refuted.test = "TestZ";
  refuted.other_tests = {"TestY"};
  std::vector<Finding> fs = {refuted, standing};
  Dedup(&fs);
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, Status::Predicted);
  EXPECT_EQ(fs[0].test, "");
  EXPECT_TRUE(fs[0].other_tests.empty());
  EXPECT_EQ(fs[0].occurrences, 2u);
}

}  // namespace
}  // namespace gordian::report
