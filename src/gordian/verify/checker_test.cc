// Tests of the model checker: for each kind of violation a bug model and
// its correct twin; every counterexample replays through the checker's own
// step function to the violation; unknown expressions and parameters;
// limits; partial-order reduction (fewer states, the same violations).
#include "gordian/verify/checker.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <set>

#include "gordian/util/sanitized.h"
#include "gordian/verify/test_models.h"

namespace gordian::verify {
namespace {

using namespace testing;
using K = InstrKind;
using report::FindingKind;
using report::Primitive;

CheckOptions Opts(std::vector<int64_t> params = {}, bool por = true, bool dead = true) {
  CheckOptions o;
  o.param_values = std::move(params);
  o.partial_order_reduction = por;
  o.dead_variable_reduction = dead;
  return o;
}

std::string Describe(const CheckResult& r) {
  std::string out = fmt::format("{} states{}{}\n", r.states, r.bounded ? " bounded: " : "", r.bound_reason);
  for (const Violation& v : r.violations) out += "  " + v.key + "\n";
  return out;
}

// Checks m; every violation must replay to itself.
CheckResult CheckAll(const Model& m, const CheckOptions& o = Opts()) {
  std::string err;
  EXPECT_TRUE(Validate(m, &err)) << err;
  CheckResult r = Check(m, o);
  for (const Violation& v : r.violations) {
    std::string why;
    EXPECT_TRUE(Replay(m, o, v, &why)) << v.key << ": " << why;
    EXPECT_FALSE(v.steps.empty());
    EXPECT_FALSE(v.where.empty());
  }
  return r;
}

std::set<FindingKind> Kinds(const CheckResult& r) {
  std::set<FindingKind> k;
  for (const Violation& v : r.violations) k.insert(v.kind);
  return k;
}

void ExpectOnly(const CheckResult& r, FindingKind k) {
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_EQ(Kinds(r), std::set<FindingKind>{k}) << Describe(r);
}

void ExpectClean(const CheckResult& r) {
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty()) << Describe(r);
  EXPECT_GT(r.states, 1u);
}

// The bug model has findings of kind k only; its fixed version has none.
// Returns the result of the bug model.
CheckResult ExpectBugAndFix(const Model& bug, FindingKind k, const Model& fixed) {
  CheckResult r = CheckAll(bug);
  ExpectOnly(r, k);
  ExpectClean(CheckAll(fixed));
  return r;
}

const Violation* Find(const CheckResult& r, FindingKind k) {
  for (const Violation& v : r.violations)
    if (v.kind == k) return &v;
  return nullptr;
}

Expr C(int64_t v) { return Expr::Const(v); }

// --- the bug models and their twins -------------------------------------

// main closes a buffered channel a goroutine may still send on.
Model SendOnClosedBug() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), Go(1, {0}), I(K::kClose, 0), I(K::kEnd)}),
            T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
}
// main receives the value before it closes.
Model SendOnClosedFixed() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kRecv, 0), I(K::kClose, 0), I(K::kEnd)}),
            T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
}

Model CloseOfClosedBug() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kClose, 0), I(K::kEnd)}),
            T("closer", 1, {I(K::kClose, 0), I(K::kEnd)})});
}
Model CloseOfClosedFixed() {  // one closer; main waits for the close
  return M({T("main", 2, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kRecv, 0, 1), I(K::kEnd)}),
            T("closer", 1, {I(K::kClose, 0), I(K::kEnd)})});
}

Model CloseOfNilBug() { return M({T("main", 1, {I(K::kClose, 0), I(K::kEnd)})}); }
Model CloseOfNilFixed() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kClose, 0), I(K::kEnd)})});
}

// Add after the go statement: Done may run first.
Model NegativeWgBug() {
  return M({T("main", 1, {I(K::kMakeWaitGroup, 0), Go(1, {0}), I(K::kWgAdd, 0, -1, -1, C(1)), I(K::kWgWait, 0),
                          I(K::kEnd)}),
            T("worker", 1, {I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})});
}
Model NegativeWgFixed() {
  return M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(1)), Go(1, {0}), I(K::kWgWait, 0),
                          I(K::kEnd)}),
            T("worker", 1, {I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})});
}

Model UnlockBug() { return M({T("main", 1, {I(K::kMakeMutex, 0), I(K::kUnlock, 0), I(K::kEnd)})}); }
Model UnlockFixed() {
  return M({T("main", 1, {I(K::kMakeMutex, 0), I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})});
}
Model RUnlockBug() {
  return M({T("main", 1, {I(K::kMakeRWMutex, 0), I(K::kRLock, 0), I(K::kRUnlock, 0), I(K::kRUnlock, 0), I(K::kEnd)})});
}
Model RUnlockFixed() {
  return M({T("main", 1, {I(K::kMakeRWMutex, 0), I(K::kRLock, 0), I(K::kRUnlock, 0), I(K::kEnd)})});
}

// A goroutine locks twice (main waits for it on a WaitGroup).
Model DoubleLockBug() {
  return M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeWaitGroup, 1), I(K::kWgAdd, 1, -1, -1, C(1)), Go(1, {0, 1}),
                          I(K::kWgWait, 1), I(K::kEnd)}),
            T("worker", 2, {I(K::kLock, 0), I(K::kLock, 0), I(K::kUnlock, 0), I(K::kUnlock, 0),
                            I(K::kWgAdd, 1, -1, -1, C(-1)), I(K::kEnd)})});
}
Model DoubleLockFixed() {
  return M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeWaitGroup, 1), I(K::kWgAdd, 1, -1, -1, C(1)), Go(1, {0, 1}),
                          I(K::kWgWait, 1), I(K::kEnd)}),
            T("worker", 2, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kLock, 0), I(K::kUnlock, 0),
                            I(K::kWgAdd, 1, -1, -1, C(-1)), I(K::kEnd)})});
}
// RLock while holding the write lock.
Model RwDoubleLockBug() {
  return M({T("main", 1, {I(K::kMakeRWMutex, 0), I(K::kLock, 0), I(K::kRLock, 0), I(K::kEnd)})});
}

// Lock while holding a read lock of the same RWMutex (an upgrade); fixed,
// the read lock is released first.
Model RwUpgradeBug(bool fixed) {
  std::vector<Instr> main = {I(K::kMakeRWMutex, 0), I(K::kRLock, 0)};
  if (fixed) main.push_back(I(K::kRUnlock, 0));
  main.push_back(I(K::kLock, 0));
  main.push_back(I(K::kUnlock, 0));
  if (!fixed) main.push_back(I(K::kRUnlock, 0));
  main.push_back(I(K::kEnd));
  return M({T("main", 1, main)});
}

// main read-locks (twice when `twice`) while a writer may announce itself.
Model RecursiveRLockBug(bool twice) {
  std::vector<Instr> main = {I(K::kMakeRWMutex, 0), Go(1, {0}), I(K::kRLock, 0)};
  if (twice) main.push_back(I(K::kRLock, 0));
  main.push_back(I(K::kRUnlock, 0));
  if (twice) main.push_back(I(K::kRUnlock, 0));
  main.push_back(I(K::kEnd));
  return M({T("main", 1, main), T("writer", 1, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})});
}

Model GlobalDeadlockBug() {  // main receives; nobody sends
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kRecv, 0), I(K::kEnd)})});
}
Model GlobalDeadlockFixed() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kRecv, 0), I(K::kEnd)}),
            T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
}

// main returns without receiving: the sender is blocked forever.
Model LeakBug() {
  return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kEnd)}),
            T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
}

// Two goroutines take two locks in opposite orders (dining philosophers).
Model LockOrderBug(bool same_order) {
  std::vector<Instr> second = same_order
      ? std::vector<Instr>{I(K::kLock, 0), I(K::kLock, 1), I(K::kUnlock, 1), I(K::kUnlock, 0), I(K::kEnd)}
      : std::vector<Instr>{I(K::kLock, 1), I(K::kLock, 0), I(K::kUnlock, 0), I(K::kUnlock, 1), I(K::kEnd)};
  return M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeMutex, 1), Go(1, {0, 1}), Go(2, {0, 1}), I(K::kEnd)}),
            T("phil1", 2, {I(K::kLock, 0), I(K::kLock, 1), I(K::kUnlock, 1), I(K::kUnlock, 0), I(K::kEnd)}),
            T("phil2", 2, second)});
}

// main sends while holding the lock its receiver takes first.
Model MixedBug(bool fixed) {
  std::vector<Instr> main = fixed
      ? std::vector<Instr>{I(K::kMakeMutex, 0), I(K::kMakeChan, 1, -1, -1, C(0)), Go(1, {0, 1}), I(K::kLock, 0),
                           I(K::kUnlock, 0), I(K::kSend, 1), I(K::kEnd)}
      : std::vector<Instr>{I(K::kMakeMutex, 0), I(K::kMakeChan, 1, -1, -1, C(0)), Go(1, {0, 1}), I(K::kLock, 0),
                           I(K::kSend, 1), I(K::kUnlock, 0), I(K::kEnd)};
  return M({T("main", 2, main),
            T("receiver", 2, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kRecv, 1), I(K::kEnd)})});
}

TEST(VerifyChecker, SendOnClosed) {
  CheckResult r = CheckAll(SendOnClosedBug());
  ExpectOnly(r, FindingKind::SendOnClosed);
  const Violation& v = r.violations[0];
  ASSERT_EQ(v.where.size(), 1u);
  EXPECT_EQ(v.where[0].template_index, 1);
  EXPECT_EQ(v.where[0].pc, 0);
  // make, go, close (main may end first), then the send.
  ASSERT_GE(v.steps.size(), 4u);
  ASSERT_LE(v.steps.size(), 5u);
  EXPECT_EQ(v.steps[2].process, 0);
  EXPECT_EQ(v.steps[2].pc, 2);
  EXPECT_EQ(v.steps.back().process, 1);
  EXPECT_EQ(v.steps.back().pc, 0);
  ExpectClean(CheckAll(SendOnClosedFixed()));
}

TEST(VerifyChecker, CloseOfClosedAndNil) {
  ExpectBugAndFix(CloseOfClosedBug(), FindingKind::CloseOfClosed, CloseOfClosedFixed());
  ExpectBugAndFix(CloseOfNilBug(), FindingKind::CloseOfNil, CloseOfNilFixed());
}

TEST(VerifyChecker, NegativeWaitGroup) {
  CheckResult r = ExpectBugAndFix(NegativeWgBug(), FindingKind::NegativeWaitGroup, NegativeWgFixed());
  EXPECT_EQ(r.violations[0].where[0].template_index, 1);
}

TEST(VerifyChecker, UnlockOfUnlocked) {
  ExpectBugAndFix(UnlockBug(), FindingKind::UnlockOfUnlocked, UnlockFixed());
  ExpectBugAndFix(RUnlockBug(), FindingKind::UnlockOfUnlocked, RUnlockFixed());
}

TEST(VerifyChecker, DoubleLock) {
  CheckResult r = CheckAll(DoubleLockBug());
  // The worker blocks forever on its second Lock; main then waits on the
  // WaitGroup forever: only the double lock is reported (the stuck worker
  // is not reported twice), plus main's global deadlock.
  EXPECT_EQ(Kinds(r), (std::set<FindingKind>{FindingKind::DoubleLock, FindingKind::GlobalDeadlock})) << Describe(r);
  const Violation* v = Find(r, FindingKind::DoubleLock);
  ASSERT_NE(v, nullptr) << Describe(r);
  EXPECT_EQ(v->primitive, Primitive::Mutex);
  EXPECT_EQ(v->where[0].template_index, 1);
  EXPECT_EQ(v->where[0].pc, 1);
  EXPECT_TRUE(v->where[0].blocks);
  ExpectClean(CheckAll(DoubleLockFixed()));
  // A recursive RLock with a writer announced in between.
  CheckResult rec = CheckAll(RecursiveRLockBug(true));
  const Violation* rv = Find(rec, FindingKind::DoubleLock);
  ASSERT_NE(rv, nullptr) << Describe(rec);
  EXPECT_EQ(rv->primitive, Primitive::RWMutex);
  ExpectClean(CheckAll(RecursiveRLockBug(false)));
  CheckResult rw = CheckAll(RwDoubleLockBug());
  ExpectOnly(rw, FindingKind::DoubleLock);
  EXPECT_EQ(rw.violations[0].primitive, Primitive::RWMutex);
  // An upgrade (RLock, then Lock) waits for its own read lock: a double
  // lock at the Lock, not a global deadlock.
  CheckResult up = CheckAll(RwUpgradeBug(false));
  ExpectOnly(up, FindingKind::DoubleLock);
  EXPECT_EQ(up.violations[0].primitive, Primitive::RWMutex);
  EXPECT_EQ(up.violations[0].where[0].pc, 2);
  ExpectClean(CheckAll(RwUpgradeBug(true)));
}

TEST(VerifyChecker, GlobalDeadlock) {
  CheckResult r = CheckAll(GlobalDeadlockBug());
  ExpectOnly(r, FindingKind::GlobalDeadlock);
  ASSERT_EQ(r.violations[0].where.size(), 1u);
  EXPECT_EQ(r.violations[0].where[0].pc, 1);
  EXPECT_TRUE(r.violations[0].steps.back().blocks);
  ExpectClean(CheckAll(GlobalDeadlockFixed()));
}

TEST(VerifyChecker, GoroutineLeakNamesWhatItWaitsOn) {
  CheckResult r = CheckAll(LeakBug());
  ExpectOnly(r, FindingKind::GoroutineLeak);
  EXPECT_EQ(r.violations[0].primitive, Primitive::ChanSend);
  EXPECT_EQ(r.violations[0].where[0].template_index, 1);
  ExpectClean(CheckAll(GlobalDeadlockFixed()));  // the same with main receiving

  struct LeakCase {
    const char* name;
    Primitive want;
    std::vector<Instr> worker;  // locals: l0 chan(0), l1 mutex (held by main), l2 wg (1), l3 cond, l4 nil
  };
  std::vector<LeakCase> cases = {
      {"recv", Primitive::ChanRecv, {I(K::kRecv, 0), I(K::kEnd)}},
      {"nil", Primitive::NilChan, {I(K::kRecv, 4), I(K::kEnd)}},
      {"select", Primitive::Select, {Select({Case(false, 0, 1), Case(true, 0, 1)}), I(K::kEnd)}},
      {"mutex", Primitive::Mutex, {I(K::kLock, 1), I(K::kEnd)}},
      {"waitgroup", Primitive::WaitGroup, {I(K::kWgWait, 2), I(K::kEnd)}},
      {"cond", Primitive::Cond, {I(K::kLock, 5), I(K::kCondWait, 3), I(K::kUnlock, 5), I(K::kEnd)}},
  };
  for (const LeakCase& c : cases) {
    Model m = M({T("main", 6, {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kMakeMutex, 1), I(K::kLock, 1),
                               I(K::kMakeWaitGroup, 2), I(K::kWgAdd, 2, -1, -1, C(1)), I(K::kMakeMutex, 5),
                               I(K::kMakeCond, 3, 5), Go(1, {0, 1, 2, 3, 4, 5}), I(K::kEnd)}),
                 T("worker", 6, c.worker)});
    CheckResult lr = CheckAll(m);
    ExpectOnly(lr, FindingKind::GoroutineLeak);
    ASSERT_FALSE(lr.violations.empty()) << c.name;
    EXPECT_EQ(lr.violations[0].primitive, c.want) << c.name;
  }
}

TEST(VerifyChecker, CondSignalWakesTheWaiter) {
  // Waiter waits while !ready; main sets ready under the lock and signals.
  // Locals: l0 mutex, l1 cond, l2 ready flag (a channel closed = ready is
  // not needed: the model keeps it in a shared WaitGroup-free way by having
  // main signal only after the waiter waits, via a handshake channel l3).
  Model fixed = M({T("main", 4, {I(K::kMakeMutex, 0), I(K::kMakeCond, 1, 0), I(K::kMakeChan, 3, -1, -1, C(0)),
                                 Go(1, {0, 1, 3}), I(K::kRecv, 3), I(K::kLock, 0), I(K::kCondSignal, 1),
                                 I(K::kUnlock, 0), I(K::kRecv, 3), I(K::kEnd)}),
                   T("waiter", 4, {I(K::kLock, 0), I(K::kSend, 2), I(K::kCondWait, 1), I(K::kUnlock, 0),
                                   I(K::kSend, 2), I(K::kEnd)})});
  // The waiter's handshake channel is its l2 = main's l3.
  ExpectClean(CheckAll(fixed));
  // Signal before the waiter waits (no handshake): the wakeup may be lost.
  Model lost = M({T("main", 4, {I(K::kMakeMutex, 0), I(K::kMakeCond, 1, 0), Go(1, {0, 1}), I(K::kLock, 0),
                                I(K::kCondSignal, 1), I(K::kUnlock, 0), I(K::kEnd)}),
                  T("waiter", 4, {I(K::kLock, 0), I(K::kCondWait, 1), I(K::kUnlock, 0), I(K::kEnd)})});
  CheckResult r = CheckAll(lost);
  ExpectOnly(r, FindingKind::GoroutineLeak);
  EXPECT_EQ(r.violations[0].primitive, Primitive::Cond);
}

TEST(VerifyChecker, LockOrderDeadlock) {
  CheckResult r = CheckAll(LockOrderBug(false));
  ExpectOnly(r, FindingKind::LockOrderDeadlock);
  EXPECT_EQ(r.violations[0].where.size(), 2u);
  ExpectClean(CheckAll(LockOrderBug(true)));
}

TEST(VerifyChecker, MixedDeadlock) {
  CheckResult r = CheckAll(MixedBug(false));
  ExpectOnly(r, FindingKind::MixedDeadlock);
  ExpectClean(CheckAll(MixedBug(true)));
}

TEST(VerifyChecker, SelectDefaultOnlyWhenNoCaseIsReady) {
  // main: select { case <-ch: ; default: } with a sender that is ready or
  // not; taking the default leaks the sender, receiving does not.
  Model m = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), Select({Case(false, 0, 3)}, 3),
                             I(K::kEnd)}),
               T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
  CheckResult r = CheckAll(m);
  ExpectOnly(r, FindingKind::GoroutineLeak);
  // The leak needs the default taken before the sender is at its send.
  const Violation& v = r.violations[0];
  bool took_default = false;
  for (const CheckStep& s : v.steps)
    if (s.process == 0 && s.pc == 2) took_default = s.select_case == -1;
  EXPECT_TRUE(took_default);
  // A buffered value makes the case ready: the default (a panic) is never
  // taken.
  Model buffered = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), I(K::kSend, 0), Select({Case(false, 0, 3)}, 4),
                                    I(K::kEnd), I(K::kPanic)})});
  ExpectClean(CheckAll(buffered));
  buffered.templates[0].code[1] = I(K::kNop);  // empty: the default panics
  ExpectOnly(CheckAll(buffered), FindingKind::Panic);
}

TEST(VerifyChecker, TimersFireAndContextsCancel) {
  // select { case <-timer: case <-ch: } with nobody sending on ch: the
  // timer fires, so no deadlock; a stopped timer deadlocks.
  auto model = [](bool stop) {
    std::vector<Instr> code = {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kMakeTimer, 1)};
    if (stop) code.push_back(I(K::kStopTimer, 1));
    const int32_t sel = static_cast<int32_t>(code.size());
    code.push_back(Select({Case(false, 1, sel + 1), Case(false, 0, sel + 1)}));
    code.push_back(I(K::kEnd));
    return M({T("main", 2, code)});
  };
  ExpectClean(CheckAll(model(false)));
  ExpectOnly(CheckAll(model(true)), FindingKind::GlobalDeadlock);
  // A context's Done channel closes when its parent is cancelled.
  Model ctx = M({T("main", 3, {I(K::kMakeContext, 0, -1), I(K::kMakeContext, 1, 0), I(K::kCtxDone, 2, 1),
                               Go(1, {2}), I(K::kCancel, 0), I(K::kEnd)}),
                 T("waiter", 1, {I(K::kRecv, 0), I(K::kEnd)})});
  ExpectClean(CheckAll(ctx));
  ctx.templates[0].code[4] = I(K::kNop);  // never cancelled: the waiter leaks
  ExpectOnly(CheckAll(ctx), FindingKind::GoroutineLeak);
  // With a timeout the environment may cancel it: no leak.
  ctx.templates[0].code[1] = I(K::kMakeContext, 1, 0, 1);
  ExpectClean(CheckAll(ctx));
}

TEST(VerifyChecker, OnceRunsItsBodyOnce) {
  // Two processes close one channel inside once.Do: the close runs once.
  // Locals: l0 chan, l1 once.
  auto closer = [](bool once) {
    return once ? std::vector<Instr>{I(K::kOnceBegin, 1, 3), I(K::kClose, 0), I(K::kOnceEnd, 1), I(K::kEnd)}
                : std::vector<Instr>{I(K::kNop), I(K::kClose, 0), I(K::kNop), I(K::kEnd)};
  };
  for (bool once : {true, false}) {
    std::vector<Instr> main = {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kMakeOnce, 1), Go(1, {0, 1})};
    for (const Instr& in : closer(once)) main.push_back(in);
    // main's copy of the closer code jumps within main: shift its target.
    if (once) main[3].b = 6;
    Model m = M({T("main", 2, main), T("closer", 2, closer(once))});
    CheckResult r = CheckAll(m);
    if (once) ExpectClean(r);
    else ExpectOnly(r, FindingKind::CloseOfClosed);
  }
}

TEST(VerifyChecker, TryLockTakesTheLockOnlyWhenFree) {
  // if mu.TryLock() { mu.Unlock() } beside a locker: never an unlock of
  // an unlocked mutex; unlocking without checking the result is one.
  auto model = [](bool check) {
    std::vector<Instr> main = {I(K::kMakeMutex, 0), Go(1, {0}), I(K::kTryLock, 0, 1)};
    main.push_back(check ? I(K::kBranch, 4, 5, -1, Expr::Local(1)) : I(K::kNop));
    main.push_back(I(K::kUnlock, 0));
    main.push_back(I(K::kEnd));
    return M({T("main", 2, main), T("locker", 2, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})});
  };
  ExpectClean(CheckAll(model(true)));
  ExpectOnly(CheckAll(model(false)), FindingKind::UnlockOfUnlocked);
}

TEST(VerifyChecker, TickersFireAgainOneShotTimersOnce) {
  auto model = [](bool ticker) {
    return M({T("main", 1, {I(K::kMakeTimer, 0, -1, ticker ? 1 : 0), I(K::kRecv, 0), I(K::kRecv, 0), I(K::kEnd)})});
  };
  ExpectClean(CheckAll(model(true)));
  CheckResult r = CheckAll(model(false));
  ExpectOnly(r, FindingKind::GlobalDeadlock);
  EXPECT_EQ(r.violations[0].where[0].pc, 2);
  // The counterexample has the environment step: the timer (object 0) fired.
  bool fired = false;
  for (const CheckStep& st : r.violations[0].steps) fired |= st.process == -1 && st.object == 0;
  EXPECT_TRUE(fired);
}

TEST(VerifyChecker, UnknownConditionTakesBothBranches) {
  // if ? { <-ch } : the sender leaks on the else branch only.
  auto model = [](Expr cond) {
    return M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kBranch, 3, 4, -1, cond),
                            I(K::kRecv, 0), I(K::kEnd)}),
              T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})});
  };
  CheckResult r = CheckAll(model(Expr{}));
  ExpectOnly(r, FindingKind::GoroutineLeak);
  ExpectClean(CheckAll(model(C(1))));
  ExpectOnly(CheckAll(model(C(0))), FindingKind::GoroutineLeak);
}

TEST(VerifyChecker, UnknownCountTakesEveryUnknownValue) {
  // Add(?) then one Done and Wait: deadlocks for 2, negative for... 0 (Done
  // below zero), fine for 1.
  Model m = M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, Expr{}),
                             I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kWgWait, 0), I(K::kEnd)})});
  CheckResult r = CheckAll(m);
  EXPECT_EQ(Kinds(r), (std::set<FindingKind>{FindingKind::NegativeWaitGroup, FindingKind::GlobalDeadlock}))
      << Describe(r);
  CheckOptions one = Opts();
  one.unknown_values = {1};
  ExpectClean(CheckAll(m, one));
}

// n senders into a channel of capacity 2 that nobody reads: a leak only
// when n >= 3.
Model LeakForLargeN() {
  Parameter n{.name = "n", .source = "len(jobs)", .mandatory = true, .values = {0, 1, 2, 3, 4, 5}};
  return M({T("main", 2, {I(K::kMakeChan, 0, -1, -1, C(2)), I(K::kAssign, 1, -1, -1, C(0)),
                          I(K::kBranch, 3, 6, -1, Bin(ExprOp::kLt, Expr::Local(1), Expr::Param(0))), Go(1, {0}),
                          I(K::kAssign, 1, -1, -1, Bin(ExprOp::kAdd, Expr::Local(1), C(1))), I(K::kJump, 2),
                          I(K::kEnd)}),
            T("sender", 1, {I(K::kSend, 0), I(K::kEnd)})},
           {n});
}

TEST(VerifyChecker, ParameterDecidesTheBug) {
  const Model m = LeakForLargeN();
  for (int64_t n = 0; n <= 5; ++n) {
    CheckResult r = CheckAll(m, Opts({n}));
    if (n < 3) {
      ExpectClean(r);
    } else {
      ExpectOnly(r, FindingKind::GoroutineLeak);
      EXPECT_EQ(r.violations.size(), 1u) << "one key for every leaked sender";
    }
  }
  CheckResult none = Check(m, Opts());
  EXPECT_TRUE(none.bounded);
  EXPECT_NE(none.bound_reason.find("1 parameters but 0 values"), std::string::npos) << none.bound_reason;
}

TEST(VerifyChecker, LimitsBoundTheSearchQuickly) {
  const auto start = std::chrono::steady_clock::now();
  // for { go worker() } with workers blocked forever: processes pile up.
  Model spawn = M({T("main", 1, {Go(1, {}), I(K::kJump, 0)}), T("worker", 1, {I(K::kRecv, 0), I(K::kEnd)})});
  CheckResult r = Check(spawn, Opts());
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("max_processes"), std::string::npos) << r.bound_reason;
  // Workers that end reuse their places: finite, no bound hit.
  spawn.templates[1].code[0] = I(K::kNop);
  r = Check(spawn, Opts());
  EXPECT_FALSE(r.bounded) << r.bound_reason;
  EXPECT_TRUE(r.violations.empty());
  // A counter that grows forever: max_states.
  Model grow = M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(1)), I(K::kJump, 1)})});
  CheckOptions o = Opts();
  o.max_states = 20'000;
  o.max_depth = 1'000'000;
  r = Check(grow, o);
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("max_states"), std::string::npos) << r.bound_reason;
  EXPECT_LE(r.states, 20'000u);
  // Objects made in a loop: max_objects.
  Model objs = M({T("main", 1, {I(K::kMakeMutex, 0), I(K::kJump, 0)})});
  r = Check(objs, Opts());
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("max_objects"), std::string::npos) << r.bound_reason;
  // max_depth.
  o = Opts();
  o.max_depth = 3;
  r = Check(LeakBug(), o);
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("max_depth"), std::string::npos) << r.bound_reason;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(VerifyChecker, InvalidModelIsAnErrorNotACrash) {
  Model m = LeakBug();
  m.templates[1].code[0] = I(K::kCall);
  CheckResult r = Check(m, Opts());
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("invalid model"), std::string::npos) << r.bound_reason;
  EXPECT_NE(r.bound_reason.find("template 1 (sender) pc 0"), std::string::npos) << r.bound_reason;
  // A slot holding an integer used as a channel: a model error, the path cut.
  Model bad = M({T("main", 1, {I(K::kAssign, 0, -1, -1, C(7)), I(K::kSend, 0), I(K::kEnd)})});
  r = Check(bad, Opts());
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("model error"), std::string::npos) << r.bound_reason;
}

TEST(VerifyChecker, ReplayRejectsAWrongCounterexample) {
  const Model m = SendOnClosedBug();
  CheckResult r = Check(m, Opts());
  ASSERT_EQ(r.violations.size(), 1u);
  Violation v = r.violations[0];
  std::string why;
  ASSERT_TRUE(Replay(m, Opts(), v, &why)) << why;
  Violation swapped = v;  // the send before the close: no panic
  std::swap(swapped.steps[2], swapped.steps[3]);
  EXPECT_FALSE(Replay(m, Opts(), swapped, &why));
  EXPECT_FALSE(why.empty());
  Violation other = v;
  other.kind = FindingKind::CloseOfClosed;
  EXPECT_FALSE(Replay(m, Opts(), other, &why));
  Violation cut = v;
  cut.steps.pop_back();
  EXPECT_FALSE(Replay(m, Opts(), cut, &why));
  EXPECT_NE(why.find("without a violation"), std::string::npos) << why;
}

// N processes that each count to k locally, then meet on one WaitGroup.
Model IndependentCounters(int n, int k) {
  std::vector<Instr> main = {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(n))};
  for (int i = 0; i < n; ++i) main.push_back(Go(1, {0}));
  main.push_back(I(K::kWgWait, 0));
  main.push_back(I(K::kEnd));
  Template w = T("counter", 2, {I(K::kAssign, 1, -1, -1, C(0)),
                                I(K::kBranch, 2, 4, -1, Bin(ExprOp::kLt, Expr::Local(1), C(k))),
                                I(K::kAssign, 1, -1, -1, Bin(ExprOp::kAdd, Expr::Local(1), C(1))),
                                I(K::kJump, 1), I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)});
  return M({T("main", 1, main), w});
}

TEST(VerifyChecker, PartialOrderReductionSavesStates) {
  const Model m = IndependentCounters(4, 4);
  CheckResult with = CheckAll(m, Opts({}, true));
  CheckResult without = CheckAll(m, Opts({}, false));
  ExpectClean(with);
  ExpectClean(without);
  EXPECT_LT(with.states * 20, without.states) << with.states << " vs " << without.states;
}

TEST(VerifyChecker, PartialOrderReductionFindsTheSameViolations) {
  std::vector<std::pair<const char*, Model>> bugs = {
      {"send-on-closed", SendOnClosedBug()}, {"close-of-closed", CloseOfClosedBug()},
      {"close-of-nil", CloseOfNilBug()},     {"negative-wg", NegativeWgBug()},
      {"unlock", UnlockBug()},               {"runlock", RUnlockBug()},
      {"double-lock", DoubleLockBug()},      {"rw-double-lock", RwDoubleLockBug()},
      {"recursive-rlock", RecursiveRLockBug(true)},
      {"deadlock", GlobalDeadlockBug()},     {"leak", LeakBug()},
      {"lock-order", LockOrderBug(false)},   {"mixed", MixedBug(false)},
  };
  for (auto& [name, m] : bugs) {
    CheckResult a = CheckAll(m, Opts({}, true)), b = CheckAll(m, Opts({}, false));
    std::set<std::string> ka, kb;
    for (const Violation& v : a.violations) ka.insert(v.key);
    for (const Violation& v : b.violations) kb.insert(v.key);
    EXPECT_FALSE(ka.empty()) << name;
    EXPECT_EQ(ka, kb) << name;
    EXPECT_LE(a.states, b.states) << name;
  }
  for (int64_t n : {2, 3}) {
    CheckResult a = CheckAll(LeakForLargeN(), Opts({n}, true)), b = CheckAll(LeakForLargeN(), Opts({n}, false));
    EXPECT_EQ(a.violations.size(), b.violations.size()) << n;
  }
}

// A random small model: main makes two channels (capacities 0 or 1), a
// mutex and a WaitGroup, starts two workers, runs some operations itself,
// and ends or not; each template is a few operations on those objects,
// local steps, branches on unknown conditions and loops.
Model RandomModel(std::mt19937* rng) {
  auto pick = [&](int n) { return static_cast<int32_t>((*rng)() % n); };
  auto body = [&](int len, std::vector<Instr>* code) {
    const int32_t start = static_cast<int32_t>(code->size());
    const int32_t end = start + len;  // the pc of the final kEnd
    for (int32_t pc = start; pc < end; ++pc) {
      switch (pick(14)) {
        case 12:  // a loop back, left through an unknown branch or never
          code->push_back(I(K::kJump, start + pick(pc - start + 1)));
          break;
        case 13: code->push_back(I(K::kBranch, start + pick(pc - start + 1), pc + 1, -1, Expr{})); break;
        case 0: code->push_back(I(K::kSend, pick(2))); break;
        case 1: code->push_back(I(K::kRecv, pick(2))); break;
        case 2: code->push_back(I(K::kClose, pick(2))); break;
        case 3: code->push_back(I(K::kLock, 2)); break;
        case 4: code->push_back(I(K::kUnlock, 2)); break;
        case 5: code->push_back(I(K::kWgAdd, 3, -1, -1, C(pick(2) ? 1 : -1))); break;
        case 6: code->push_back(I(K::kWgWait, 3)); break;
        case 7: code->push_back(I(K::kAssign, 4, -1, -1, C(pick(3)))); break;
        case 8: code->push_back(I(K::kBranch, pc + 1, pc + 1 + pick(end - pc), -1, Expr{})); break;
        case 9: code->push_back(Select({Case(pick(2), pick(2), pc + 1), Case(false, pick(2), pc + 1)},
                                       pick(2) ? pc + 1 : -1));
          break;
        case 10: code->push_back(I(K::kNop)); break;
        default: code->push_back(I(K::kRecv, pick(2), 4)); break;
      }
    }
    code->push_back(I(K::kEnd));
  };
  std::vector<Instr> main = {I(K::kMakeChan, 0, -1, -1, C(pick(2))), I(K::kMakeChan, 1, -1, -1, C(pick(2))),
                             I(K::kMakeMutex, 2), I(K::kMakeWaitGroup, 3), Go(1, {0, 1, 2, 3}), Go(2, {0, 1, 2, 3})};
  body(pick(4), &main);
  std::vector<Instr> w1, w2;
  body(1 + pick(5), &w1);
  body(1 + pick(5), &w2);
  return M({T("main", 5, main), T("w1", 5, w1), T("w2", 5, w2)});
}

// Both reductions, each alone, and neither find the same violation keys.
TEST(VerifyChecker, ReductionsAgreeOnRandomModels) {
  std::mt19937 rng(14);
  int with_bugs = 0;
  uint64_t states_both = 0, states_por = 0, states_dead = 0, states_none = 0;
  auto keys = [](const CheckResult& r) {
    std::set<std::string> k;
    for (const Violation& v : r.violations) k.insert(v.key);
    return k;
  };
  // 500 models take 2 s in the release build and 55 s under ASan.
  const int models = util::kSanitized ? 120 : 500;
  for (int i = 0; i < models; ++i) {
    const Model m = RandomModel(&rng);
    std::string err;
    ASSERT_TRUE(Validate(m, &err)) << err << "\n" << Print(m);
    CheckResult both = CheckAll(m, Opts({}, true, true)), por = CheckAll(m, Opts({}, true, false)),
                dead = CheckAll(m, Opts({}, false, true)), none = CheckAll(m, Opts({}, false, false));
    EXPECT_EQ(keys(both), keys(none)) << "model " << i << "\n" << Print(m);
    EXPECT_EQ(keys(por), keys(none)) << "model " << i << "\n" << Print(m);
    EXPECT_EQ(keys(dead), keys(none)) << "model " << i << "\n" << Print(m);
    with_bugs += !keys(none).empty();
    states_both += both.states;
    states_por += por.states;
    states_dead += dead.states;
    states_none += none.states;
  }
  EXPECT_GT(with_bugs, models / 5);  // the comparison is about something
  EXPECT_LT(states_por, states_none);
  EXPECT_LT(states_dead, states_none);
  EXPECT_LE(states_both, states_por);
}

TEST(VerifyChecker, DeadVariableReductionMergesStates) {
  // Each worker reads an unknown value once (0, 1 or 2), then works on:
  // after the read the value is dead, and the states no longer differ in it.
  std::vector<Instr> main = {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(3))};
  for (int i = 0; i < 3; ++i) main.push_back(Go(1, {0}));
  main.push_back(I(K::kWgWait, 0));
  main.push_back(I(K::kEnd));
  const Model m = M({T("main", 1, main),
                     T("worker", 2, {I(K::kAssign, 1, -1, -1, Expr{}),
                                     I(K::kBranch, 2, 2, -1, Bin(ExprOp::kLt, Expr::Local(1), C(5))), I(K::kNop),
                                     I(K::kNop), I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})});
  CheckResult with = CheckAll(m, Opts({}, false, true)), without = CheckAll(m, Opts({}, false, false));
  ExpectClean(with);
  ExpectClean(without);
  EXPECT_LT(with.states, without.states);
}

TEST(VerifyChecker, ACounterThatOnlyFeedsItselfIsDead) {
  // for <data the model does not track> { n = n + 1 }: n is read only by
  // its own update, so it is dead throughout (strong liveness) and the loop
  // is a handful of states; counted, every iteration is a new state until
  // the path limit (unicode/utf8.RuneCount in the GOROOT run).
  const Model m = M({T("main", 1,
                       {I(K::kAssign, 0, -1, -1, C(0)),                              // 0: n = 0
                        I(K::kBranch, 2, 4),                                         // 1: if ? (unknown)
                        I(K::kAssign, 0, -1, -1, Bin(ExprOp::kAdd, Expr::Local(0), C(1))),  // 2: n = n + 1
                        I(K::kJump, 1),                                              // 3
                        I(K::kEnd)})});                                              // 4
  CheckResult with = CheckAll(m, Opts());
  ExpectClean(with);
  EXPECT_FALSE(with.bounded) << with.bound_reason;
  EXPECT_LT(with.states, 10u);
  CheckOptions o = Opts({}, true, false);
  o.max_depth = 500;
  CheckResult without = Check(m, o);
  EXPECT_TRUE(without.bounded);
  EXPECT_NE(without.bound_reason.find("max_depth"), std::string::npos) << without.bound_reason;
  // A counter something else reads stays live: its loop is still counted.
  Model read = m;
  read.templates[0].code[4] = I(K::kBranch, 5, 5, -1, Bin(ExprOp::kLt, Expr::Local(0), C(1000)));  // 4: if n < 1000
  read.templates[0].code.push_back(I(K::kEnd));                                                      // 5
  CheckOptions o2 = Opts();
  o2.max_depth = 500;
  CheckResult r = Check(read, o2);
  EXPECT_TRUE(r.bounded);
  EXPECT_NE(r.bound_reason.find("max_depth"), std::string::npos) << "n is live: every iteration is a new state";
}

}  // namespace
}  // namespace gordian::verify
