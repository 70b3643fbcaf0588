// Tests of the liveness search (liveness.h): a goroutine blocked while a
// ticker loop runs forever is a partial deadlock that the safety check
// cannot see (no state is stuck), with a lasso counterexample; the
// fairness assumptions each remove a false cycle (a select case that is
// possible again and again is taken, a branch on untracked data leaves its
// loop, a timer fires, a process waiting for a lock that is free now and
// then is not blocked throughout); a message left in a buffer while the
// program runs on; budgets.
#include "gordian/verify/liveness.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;
using report::FindingKind;

Expr C(int64_t v) { return Expr::Const(v); }

std::string Describe(const LivenessResult& r) {
  std::string out = fmt::format("{} states{}{}\n", r.states, r.bounded ? " bounded: " : "", r.bound_reason);
  for (const Violation& v : r.violations) out += "  " + v.key + "\n";
  return out;
}

LivenessResult Live(const Model& m, CheckOptions o = {}) {
  std::string err;
  EXPECT_TRUE(Validate(m, &err)) << err;
  EXPECT_TRUE(MayRunForever(m));
  // The safety check sees nothing in these models: no state is stuck.
  CheckResult safety = Check(m, o);
  EXPECT_TRUE(safety.violations.empty()) << safety.violations[0].key;
  // Each has a cycle, which the safety search's reduced graph keeps.
  EXPECT_TRUE(safety.may_cycle);
  return CheckLiveness(m, o);
}

// main loops on a ticker forever; the goroutine waits on a channel nobody
// sends on.
Model HeartbeatWithStuckWaiter() {
  return M({T("main", 2, {I(K::kMakeTimer, 0, -1, 1), I(K::kMakeChan, 1, -1, -1, C(0)), Go(1, {1}),
                          I(K::kRecv, 0), I(K::kJump, 3)}),
            T("waiter", 1, {I(K::kRecv, 0), I(K::kEnd)})});
}

TEST(VerifyLiveness, ABlockedGoroutineBesideAnEndlessLoopIsAPartialDeadlockWithALasso) {
  const Model m = HeartbeatWithStuckWaiter();
  LivenessResult r = Live(m);
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  ASSERT_EQ(r.violations.size(), 1u) << Describe(r);
  const Violation& v = r.violations[0];
  EXPECT_EQ(v.kind, FindingKind::PartialDeadlock);
  EXPECT_EQ(v.primitive, report::Primitive::ChanRecv);
  EXPECT_EQ(v.key, "partial-deadlock 1:0");
  ASSERT_EQ(v.where.size(), 1u);
  EXPECT_TRUE(v.where[0].blocks);
  // The lasso: the steps to the cycle (the makes and the go), then a
  // cycle in which the ticker fires and main receives, the waiter never
  // moves; its blocked position last.
  ASSERT_GT(v.cycle_start, 0);
  ASSERT_LT(static_cast<size_t>(v.cycle_start), v.steps.size() - 1);
  bool env = false, main_recv = false;
  for (size_t i = v.cycle_start; i + 1 < v.steps.size(); ++i) {
    const CheckStep& s = v.steps[i];
    EXPECT_NE(s.process, 1) << "the waiter moves in the cycle at step " << i;
    env = env || s.process == -1;
    main_recv = main_recv || (s.process == 0 && s.pc == 3);
  }
  EXPECT_TRUE(env && main_recv);
  EXPECT_TRUE(v.steps.back().blocks);
  EXPECT_EQ(v.steps.back().process, 1);
}

// A server loop selects on its ticker and on quit; main closes quit and
// waits for it. Taking the tick case forever would leave main blocked in
// Wait, but quit's case is ready again and again, so a fair run takes it
// (Go's select picks among ready cases at random).
TEST(VerifyLiveness, ASelectCasePossibleAgainAndAgainIsTaken) {
  const Model m = M({T("main", 3, {I(K::kMakeTimer, 0, -1, 1), I(K::kMakeChan, 1, -1, -1, C(0)), I(K::kMakeWaitGroup, 2),
                                   I(K::kWgAdd, 2, -1, -1, C(1)), Go(1, {0, 1, 2}), I(K::kClose, 1), I(K::kWgWait, 2),
                                   I(K::kEnd)}),
                     T("server", 3, {Select({Case(false, 0, 0), Case(false, 1, 1)}), I(K::kWgAdd, 2, -1, -1, C(-1)),
                                     I(K::kEnd)})});
  LivenessResult r = Live(m);
  EXPECT_FALSE(r.bounded);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  EXPECT_GT(r.states, 3u);
  // Without the quit case the server ticks forever: main's Wait is a
  // partial deadlock.
  Model no_quit = m;
  no_quit.templates[1].code[0].cases.pop_back();
  r = Live(no_quit);
  ASSERT_EQ(r.violations.size(), 1u) << Describe(r);
  EXPECT_EQ(r.violations[0].key, "partial-deadlock 0:6");
  EXPECT_EQ(r.violations[0].primitive, report::Primitive::WaitGroup);
}

// A loop over data the model does not track (either branch, forever)
// ends in a fair run, and then main sends.
TEST(VerifyLiveness, ALoopOverUntrackedDataEnds) {
  const Model m = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kBranch, 2, 3), I(K::kSend, 0),
                                   I(K::kEnd)}),
                     T("worker", 1, {I(K::kRecv, 0), I(K::kEnd)})});
  LivenessResult r = Live(m);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  // With the branch's condition known to be true forever, the loop is
  // real: the worker is blocked while main spins.
  Model spin = m;
  spin.templates[0].code[2].expr = C(1);
  r = CheckLiveness(spin, {});
  ASSERT_EQ(r.violations.size(), 1u) << Describe(r);
  EXPECT_EQ(r.violations[0].key, "partial-deadlock 1:0");
}

// A one-shot timer in a select fires in a fair run, even while a ticker
// loop runs on.
TEST(VerifyLiveness, ATimerFires) {
  const Model m = M({T("main", 3, {I(K::kMakeTimer, 0, -1, 1), I(K::kMakeTimer, 2), I(K::kMakeChan, 1, -1, -1, C(0)),
                                   Go(1, {1, 2}), I(K::kRecv, 0), I(K::kJump, 4)}),
                     T("waiter", 2, {Select({Case(false, 0, 1), Case(false, 1, 1)}), I(K::kEnd)})});
  LivenessResult r = Live(m);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
}

// A process waiting for a lock that another process takes and releases
// forever is not blocked throughout (the lock is free now and then): not
// reported, since Go's mutex hands over to a starving waiter.
TEST(VerifyLiveness, WaitingForALockThatIsFreeNowAndThenIsNotReported) {
  const Model m = M({T("main", 1, {I(K::kMakeMutex, 0), Go(1, {0}), I(K::kLock, 0), I(K::kUnlock, 0), I(K::kJump, 2)}),
                     T("worker", 1, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})});
  LivenessResult r = Live(m);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  // Holding the lock across the loop, main blocks the worker for good.
  const Model held = M({T("main", 1, {I(K::kMakeMutex, 0), Go(1, {0}), I(K::kLock, 0), I(K::kNop), I(K::kJump, 3)}),
                        T("worker", 1, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})});
  r = Live(held);
  ASSERT_EQ(r.violations.size(), 1u) << Describe(r);
  EXPECT_EQ(r.violations[0].key, "partial-deadlock 1:0");
  EXPECT_EQ(r.violations[0].primitive, report::Primitive::Mutex);
}

// A value left in a buffered channel while main loops forever: never
// received. Its twin receives it in the loop's select.
TEST(VerifyLiveness, AMessageLeftInABufferWhileTheProgramRunsOnIsUndelivered) {
  const Model m = M({T("main", 2, {I(K::kMakeTimer, 0, -1, 1), I(K::kMakeChan, 1, -1, -1, C(1)), Go(1, {1}),
                                   I(K::kRecv, 0), I(K::kJump, 3)}),
                     T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
  LivenessResult r = Live(m);
  ASSERT_EQ(r.violations.size(), 1u) << Describe(r);
  const Violation& v = r.violations[0];
  EXPECT_EQ(v.kind, FindingKind::UndeliveredMessage);
  EXPECT_EQ(v.key, "undelivered-message 1:0");
  ASSERT_EQ(v.where.size(), 1u);
  EXPECT_EQ(v.where[0].process, 1);
  EXPECT_GE(v.cycle_start, 0);

  const Model twin = M({T("main", 2, {I(K::kMakeTimer, 0, -1, 1), I(K::kMakeChan, 1, -1, -1, C(1)), Go(1, {1}),
                                      Select({Case(false, 0, 3), Case(false, 1, 3)})}),
                        T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
  r = Live(twin);
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
}

TEST(VerifyLiveness, AModelWhoseRunsAllEndNeedsNoSearch) {
  EXPECT_FALSE(MayRunForever(M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kSend, 0), I(K::kEnd)}),
                                T("worker", 1, {I(K::kRecv, 0), I(K::kEnd)})})));
  EXPECT_FALSE(MayRunForever(M({T("main", 1, {I(K::kMakeTimer, 0), I(K::kRecv, 0), I(K::kEnd)})})));
  EXPECT_TRUE(MayRunForever(M({T("main", 1, {I(K::kMakeTimer, 0, -1, 1), I(K::kRecv, 0), I(K::kEnd)})})));
}

// Loops over a known bound make every state new: the safety search sees
// no move back to a state no deeper than its source, so verify skips the
// liveness search of such a model (its cost is the unreduced graph).
TEST(VerifyLiveness, TheSafetySearchSaysWhenNoCycleCanExist) {
  EXPECT_TRUE(MayRunForever(ProdCons(2, 2, 1)));
  EXPECT_FALSE(Check(ProdCons(2, 2, 1), {}).may_cycle);
  EXPECT_FALSE(Check(Workers(3, 2), {}).may_cycle);
  EXPECT_TRUE(Check(HeartbeatWithStuckWaiter(), {}).may_cycle);
}

TEST(VerifyLiveness, TheStateLimitBoundsTheSearch) {
  CheckOptions o;
  o.max_states = 4;
  LivenessResult r = CheckLiveness(HeartbeatWithStuckWaiter(), o);
  EXPECT_TRUE(r.bounded);
  EXPECT_TRUE(r.out_of_states);
  EXPECT_LE(r.states, 5u);
}

}  // namespace
}  // namespace gordian::verify
