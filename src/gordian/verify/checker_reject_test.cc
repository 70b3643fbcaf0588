// Tests of the checker's "disallow" hook (CheckOptions::reject), which
// `gordian verify -confirm` uses to ask for the next counterexample of a
// bug when one does not replay on the real program, and of its stop
// (CheckOptions::enough), which ends the search at that bug.
#include <gtest/gtest.h>

#include <set>

#include "gordian/verify/checker.h"
#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;

// Two goroutines each close the same channel: close-of-closed, reached
// with either goroutine closing second.
Model TwoClosers() {
  Template main = T("main", 1, {I(K::kMakeChan, 0, -1, -1, Expr::Const(0)), Go(1, {0}), Go(1, {0}), I(K::kEnd)});
  Template closer = T("closer", 1, {I(K::kClose, 0), I(K::kEnd)});
  return M({main, closer});
}

CheckOptions Opts() {
  CheckOptions o;
  o.partial_order_reduction = false;  // every order, so there is a next one
  return o;
}

TEST(VerifyCheckerReject, ARejectedCounterexampleGivesTheNextOne) {
  Model m = TwoClosers();
  CheckResult first = Check(m, Opts());
  ASSERT_EQ(first.violations.size(), 1u);
  const std::vector<CheckStep> a = first.violations[0].steps;
  CheckOptions o = Opts();
  int rejected = 0;
  o.reject = [&](const Violation& v) {
    bool same = v.steps.size() == a.size();
    for (size_t i = 0; same && i < a.size(); i++) {
      same = v.steps[i].process == a[i].process && v.steps[i].pc == a[i].pc;
    }
    rejected += same;
    return same;
  };
  CheckResult next = Check(m, o);
  EXPECT_EQ(rejected, 1);
  ASSERT_EQ(next.violations.size(), 1u);  // the same bug (key), another path
  EXPECT_EQ(next.violations[0].key, first.violations[0].key);
  bool differs = next.violations[0].steps.size() != a.size();
  for (size_t i = 0; !differs && i < a.size(); i++) differs = next.violations[0].steps[i].process != a[i].process;
  EXPECT_TRUE(differs);
}

TEST(VerifyCheckerReject, RejectingEveryCounterexampleLeavesNone) {
  CheckOptions o = Opts();
  int asked = 0;
  o.reject = [&](const Violation&) {
    asked++;
    return true;
  };
  CheckResult r = Check(TwoClosers(), o);
  EXPECT_TRUE(r.violations.empty());
  EXPECT_GE(asked, 2);  // both orders were offered
}

// Two channels, each closed by two goroutines of its own function: two
// bugs (keys: the closes are at two places).
Model TwoPairsOfClosers() {
  Template main = T("main", 2,
                    {I(K::kMakeChan, 0, -1, -1, Expr::Const(0)), I(K::kMakeChan, 1, -1, -1, Expr::Const(0)),
                     Go(1, {0}), Go(1, {0}), Go(2, {1}), Go(2, {1}), I(K::kEnd)});
  Template closer = T("closer", 1, {I(K::kClose, 0), I(K::kEnd)});
  Template other = T("other", 1, {I(K::kClose, 0), I(K::kEnd)});
  return M({main, closer, other});
}

TEST(VerifyCheckerReject, TheSearchStopsAtTheViolationThatIsEnough) {
  const Model m = TwoPairsOfClosers();
  const CheckResult all = Check(m, Opts());
  ASSERT_EQ(all.violations.size(), 2u);
  for (size_t want = 0; want < 2; want++) {
    SCOPED_TRACE(want);
    CheckOptions o = Opts();
    int asked = 0;
    o.enough = [&](const Violation& v) {
      asked++;
      return v.key == all.violations[want].key;
    };
    const CheckResult r = Check(m, o);
    ASSERT_EQ(r.violations.size(), want + 1) << "the violations before the wanted one, and it";
    EXPECT_EQ(r.violations.back().key, all.violations[want].key);
    EXPECT_EQ(asked, static_cast<int>(want + 1));
    if (want == 0) {
      EXPECT_LT(r.states, all.states) << "it stopped before the end";
    }
    EXPECT_FALSE(r.bounded) << "a stop is no bound: " << r.bound_reason;
  }
  // A violation the hook rejects is never offered to enough.
  CheckOptions o = Opts();
  o.reject = [&](const Violation& v) { return v.key == all.violations[0].key; };
  o.enough = [&](const Violation& v) { return v.key == all.violations[0].key; };
  const CheckResult r = Check(m, o);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].key, all.violations[1].key);
  EXPECT_EQ(r.states, all.states) << "nothing was enough: the whole search";
}

}  // namespace
}  // namespace gordian::verify
