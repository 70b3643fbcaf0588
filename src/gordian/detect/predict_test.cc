// Tests of the predictive detectors on hand-built traces: for each
// detector the bug it must find and the look-alikes it must not report.
#include "gordian/detect/predict.h"

#include <gtest/gtest.h>

#include "gordian/hb/trace_builder.h"

namespace gordian::detect {
namespace {

using TB = hb::testing::TraceBuilder;
using H = TB::H;
using report::Finding;
using report::FindingKind;
using trace::Kind;

struct Run {
  trace::Trace t;
  std::unique_ptr<hb::HappensBefore> hb;
  std::vector<Finding> findings;
  int Count(FindingKind k) const {
    int n = 0;
    for (const Finding& f : findings) n += f.kind == k;
    return n;
  }
  const Finding* First(FindingKind k) const {
    for (const Finding& f : findings) {
      if (f.kind == k) return &f;
    }
    return nullptr;
  }
};

Run Predict(TB& b, PredictOptions opt = {}) {
  Run r;
  r.t = b.Finish();
  r.hb = std::make_unique<hb::HappensBefore>();
  std::string err;
  EXPECT_TRUE(r.hb->Build(r.t, &err)) << err;
  PredictBugs(r.t, *r.hb, &r.findings, opt);
  for (const Finding& f : r.findings) {
    EXPECT_EQ(f.status, report::Status::Predicted);
    EXPECT_FALSE(f.message.empty());
    EXPECT_FALSE(f.locations.empty());
  }
  return r;
}

// --- send-on-closed

TEST(SendOnClosed, SendConcurrentWithClose) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  H s = b.Send(g2, ch);
  b.Close(1, ch);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::SendOnClosed), 1);
  const Finding* f = r.First(FindingKind::SendOnClosed);
  EXPECT_EQ(f->severity, report::Severity::Bug);
  EXPECT_EQ(f->locations[0].role, report::Role::Send);
  EXPECT_EQ(f->locations[0].tpre, r.t.records[b.Index(s)].tpre);
  EXPECT_EQ(f->locations[1].role, report::Role::Close);
  // The interleaving is the buggy schedule's order, not the recorded one
  // (the send came first in the run).
  ASSERT_EQ(f->interleaving.size(), 2u);
  EXPECT_EQ(f->interleaving[0].loc.role, report::Role::Close);
  EXPECT_EQ(f->interleaving[1].loc.role, report::Role::Send);
}

TEST(SendOnClosed, CloseAfterWaitGroupIsNotReported) {
  // Workers send, then Done; main closes after Wait.
  TB b;
  uint32_t ch = b.MakeChan(1, 8);
  uint32_t wg = b.NewObject();
  b.WgAdd(1, wg, 2);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Send(g2, ch);
  b.Send(g3, ch);
  b.Done(g2, wg);
  H w = b.WaitBegin(1, wg);
  b.Done(g3, wg);
  b.Complete(w);
  b.Close(1, ch);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 0);
}

TEST(SendOnClosed, SenderClosesItsOwnChannelIsNotReported) {
  TB b;
  uint32_t ch = b.MakeChan(1, 2);
  uint32_t g2 = b.Go(1);
  b.Send(g2, ch);
  b.Send(g2, ch);
  b.Close(g2, ch);
  b.Recv(1, ch);
  b.Recv(1, ch);
  b.RecvClosed(1, ch);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 0);
}

TEST(SendOnClosed, UnbufferedSendReceivedBeforeCloseIsNotReported) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  H s = b.SendBegin(g2, ch);
  b.Recv(1, ch);
  b.Complete(s);
  b.Close(1, ch);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 0);
}

TEST(SendOnClosed, SelectSendCaseNotChosen) {
  // select { case out <- v: case <-done: } runs after close(done) and takes
  // the done case; out is closed concurrently: the send case could fire.
  TB b;
  uint32_t out = b.MakeChan(1, 1);
  uint32_t done = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  b.Close(1, done);
  b.Close(1, out);
  b.Select(g2, {{out, true}, {done, false}}, 1, false, /*closed=*/true);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 1);
}

TEST(SendOnClosed, AddInsideWorkerDoesNotOrderWait) {
  // Workers call wg.Add(1) themselves; main's Wait may run before an Add,
  // return early, and close results before that worker's send.
  TB b;
  uint32_t res = b.MakeChan(1, 4);
  uint32_t wg = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.WgAdd(g2, wg, 1);
  b.Send(g2, res);
  b.Done(g2, wg);
  b.Wait(1, wg);
  b.Close(1, res);
  b.Recv(1, res);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 1);
}

// --- recv-on-closed

TEST(RecvOnClosed, CompetingReceiverThatSawClose) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Send(1, ch);
  b.Close(1, ch);
  b.Recv(g2, ch);
  b.RecvClosed(g3, ch);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::RecvOnClosed), 1);
  EXPECT_EQ(r.First(FindingKind::RecvOnClosed)->severity, report::Severity::Warning);
}

TEST(RecvOnClosed, SendNotOrderedBeforeClose) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Send(g2, ch);
  b.Recv(1, ch);
  b.Close(g3, ch);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 1);
  EXPECT_EQ(r.Count(FindingKind::RecvOnClosed), 1);
}

TEST(RecvOnClosed, SingleReceiverLoopIsNotReported) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  b.Send(1, ch);
  b.Close(1, ch);
  b.Recv(g2, ch);
  b.RecvClosed(g2, ch);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::RecvOnClosed), 0);
}

TEST(RecvOnClosed, ReceiveFromStructChannelIsNotReported) {
  // The competing-receiver run above on a chan struct{} (a semaphore or a
  // token channel): the zero value the receive could get is struct{}{},
  // the only value there is, so nothing can go wrong.
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Send(1, ch);
  b.Close(1, ch);
  b.Rec(b.Recv(g2, ch)).flags |= trace::kZeroSize;
  b.Rec(b.RecvClosed(g3, ch)).flags |= trace::kZeroSize;
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::RecvOnClosed), 0);
}

TEST(RecvOnClosed, DoneChannelOnlyEverClosedIsNotReported) {
  // A done channel: never sent on, closed once, received by several
  // goroutines; no receive got a value, so none can be robbed of one.
  TB b;
  uint32_t done = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Close(1, done);
  b.RecvClosed(g2, done);
  b.Select(g3, {{done, false}}, 0, true, true);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::RecvOnClosed), 0);
}

// --- negative-waitgroup

TEST(NegativeWaitGroup, DoneInGoroutineSpawnedBeforeAdd) {
  TB b;
  uint32_t wg = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.WgAdd(1, wg, 1);
  b.Done(g2, wg);
  b.Wait(1, wg);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::NegativeWaitGroup), 1);
  const Finding* f = r.First(FindingKind::NegativeWaitGroup);
  EXPECT_EQ(f->locations[0].role, report::Role::Done);
  ASSERT_EQ(f->locations.size(), 2u);
  EXPECT_EQ(f->locations[1].role, report::Role::Add);
}

TEST(NegativeWaitGroup, AddBeforeSpawnIsNotReported) {
  TB b;
  uint32_t wg = b.NewObject();
  b.WgAdd(1, wg, 2);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Done(g3, wg);
  b.Done(g2, wg);
  b.Wait(1, wg);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::NegativeWaitGroup), 0);
}

TEST(NegativeWaitGroup, PerWorkerAddBeforeEachSpawnIsNotReported) {
  TB b;
  uint32_t wg = b.NewObject();
  std::vector<uint32_t> ws;
  for (int k = 0; k < 4; ++k) {
    b.WgAdd(1, wg, 1);
    ws.push_back(b.Go(1));
  }
  for (uint32_t w : ws) b.Done(w, wg);
  b.Wait(1, wg);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::NegativeWaitGroup), 0);
}

TEST(NegativeWaitGroup, OneAddForTwoDonesAcrossRoundsNeedsFlow) {
  // Round 1: Add(1) then g2 Done. Round 2: g3 (spawned before the second
  // Add) Done. A greedy match could use the first Add for g3; the flow
  // sees that g3's Done has only the first Add, which g2 also needs.
  TB b;
  uint32_t wg = b.NewObject();
  b.WgAdd(1, wg, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Done(g2, wg);
  b.Wait(1, wg);
  b.WgAdd(1, wg, 1);
  b.Done(g3, wg);
  b.Wait(1, wg);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::NegativeWaitGroup), 1);
}

// --- unlock-of-unlocked

TEST(UnlockOfUnlocked, CrossGoroutineUnlockConcurrentWithLock) {
  TB b;
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Lock(1, m);
  b.Unlock(g2, m);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::UnlockOfUnlocked), 1);
  EXPECT_EQ(r.First(FindingKind::UnlockOfUnlocked)->locations[0].role, report::Role::Unlock);
}

TEST(UnlockOfUnlocked, HandOffAfterLockIsNotReported) {
  TB b;
  uint32_t m = b.NewObject();
  b.Lock(1, m);
  uint32_t g2 = b.Go(1);
  b.Unlock(g2, m);
  b.Lock(1, m);
  b.Unlock(1, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::UnlockOfUnlocked), 0);
}

TEST(UnlockOfUnlocked, OrdinaryCriticalSectionsAreNotReported) {
  TB b;
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Lock(1, m);
  b.Unlock(1, m);
  b.Lock(g2, m);
  b.Unlock(g2, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::UnlockOfUnlocked), 0);
}

// --- lock-order-deadlock

TEST(LockOrder, OppositeOrdersInTwoGoroutines) {
  TB b;
  uint32_t a = b.NewObject();
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Lock(g2, a);
  b.Lock(g2, m);
  b.Unlock(g2, m);
  b.Unlock(g2, a);
  b.Lock(g3, m);
  b.Lock(g3, a);
  b.Unlock(g3, a);
  b.Unlock(g3, m);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::LockOrderDeadlock), 1);
  EXPECT_EQ(r.First(FindingKind::LockOrderDeadlock)->locations.size(), 4u);
}

TEST(LockOrder, DeadlockThatOccurredIsNotPredicted) {
  TB b;
  uint32_t a = b.NewObject();
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Lock(g2, a);
  b.Lock(g3, m);
  b.AddBegin(g2, Kind::MutexLock, m);  // both block forever
  b.AddBegin(g3, Kind::MutexLock, a);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::LockOrderDeadlock), 0);
}

TEST(LockOrder, OrderedByChannelIsNotReported) {
  TB b;
  uint32_t a = b.NewObject();
  uint32_t m = b.NewObject();
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Lock(g2, a);
  b.Lock(g2, m);
  b.Unlock(g2, m);
  b.Unlock(g2, a);
  b.Send(g2, ch);
  b.Recv(g3, ch);
  b.Lock(g3, m);
  b.Lock(g3, a);
  b.Unlock(g3, a);
  b.Unlock(g3, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::LockOrderDeadlock), 0);
}

TEST(LockOrder, GateLockIsNotReported) {
  TB b;
  uint32_t gate = b.NewObject();
  uint32_t a = b.NewObject();
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Lock(g2, gate);
  b.Lock(g2, a);
  b.Lock(g2, m);
  b.Unlock(g2, m);
  b.Unlock(g2, a);
  b.Unlock(g2, gate);
  b.Lock(g3, gate);
  b.Lock(g3, m);
  b.Lock(g3, a);
  b.Unlock(g3, a);
  b.Unlock(g3, m);
  b.Unlock(g3, gate);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::LockOrderDeadlock), 0);
}

TEST(LockOrder, ReadLocksOnBothSidesAreNotReported) {
  TB b;
  uint32_t a = b.NewObject();
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.RLock(g2, a);
  b.RLock(g2, m);
  b.RUnlock(g2, m);
  b.RUnlock(g2, a);
  b.RLock(g3, m);
  b.RLock(g3, a);
  b.RUnlock(g3, a);
  b.RUnlock(g3, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::LockOrderDeadlock), 0);
}

// --- mixed-deadlock

TEST(MixedDeadlock, HolderReceivesFromGoroutineThatNeedsTheLock) {
  TB b;
  uint32_t m = b.NewObject();
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  b.Lock(g2, m);    // B's critical section happens to come first
  b.Unlock(g2, m);
  b.Lock(1, m);     // A takes m ...
  H s = b.SendBegin(g2, ch);
  b.Recv(1, ch);    // ... and receives while holding it
  b.Complete(s);
  b.Unlock(1, m);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::MixedDeadlock), 1);
  EXPECT_EQ(r.First(FindingKind::MixedDeadlock)->locations.size(), 4u);
}

TEST(MixedDeadlock, PartnerWithoutTheLockIsNotReported) {
  TB b;
  uint32_t m = b.NewObject();
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  b.Lock(1, m);
  H s = b.SendBegin(g2, ch);
  b.Recv(1, ch);
  b.Complete(s);
  b.Unlock(1, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::MixedDeadlock), 0);
}

TEST(MixedDeadlock, LockOrderedByChannelIsNotReported) {
  // B's critical section is ordered before A's Lock by another channel.
  TB b;
  uint32_t m = b.NewObject();
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t ready = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  b.Lock(g2, m);
  b.Unlock(g2, m);
  b.Send(g2, ready);
  b.Recv(1, ready);
  b.Lock(1, m);
  H s = b.SendBegin(g2, ch);
  b.Recv(1, ch);
  b.Complete(s);
  b.Unlock(1, m);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::MixedDeadlock), 0);
}

// --- predicted goroutine leak (select)

TEST(SelectLeak, ForgottenSenderWithTimeout) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t timer = b.ForeignChan();  // time.After: no recorded make or send
  uint32_t g2 = b.Go(1);
  H s = b.SendBegin(g2, ch);
  b.Select(1, {{ch, false}, {timer, false}}, 0);
  b.Complete(s);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::GoroutineLeak), 1);
  const Finding* f = r.First(FindingKind::GoroutineLeak);
  EXPECT_EQ(f->primitive, report::Primitive::ChanSend);
  EXPECT_EQ(f->locations[0].role, report::Role::Send);
  EXPECT_EQ(f->locations[1].role, report::Role::Select);
}

TEST(SelectLeak, NoAlternativeCaseIsNotReported) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t quit = b.MakeChan(1, 0);  // made by user code, never sent or closed
  uint32_t g2 = b.Go(1);
  H s = b.SendBegin(g2, ch);
  b.Select(1, {{ch, false}, {quit, false}}, 0);
  b.Complete(s);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
}

TEST(SelectLeak, AnotherReceiverIsNotReported) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t timer = b.ForeignChan();
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H s = b.SendBegin(g2, ch);
  b.Select(1, {{ch, false}, {timer, false}}, 0);
  b.Complete(s);
  b.BlockedRecv(g3, ch);  // would take the value if the select did not
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
}

TEST(SelectLeak, ServingLoopThatQuitsIsAGlobalDeadlockForMain) {
  // Router: for { select { case j := <-jobs: ...; case <-quit: return } };
  // main sends jobs; a shutdown goroutine closes quit concurrently. The run
  // shows that taking quit ends the router: main's send could be stranded.
  TB b;
  uint32_t jobs = b.MakeChan(1, 0);
  uint32_t quit = b.MakeChan(1, 0);
  uint32_t sel_site = b.Site("router.go", 20);
  uint32_t jobs_case = b.Site("router.go", 21);
  uint32_t quit_case = b.Site("router.go", 23);
  uint32_t send_site = b.Site("router.go", 40);
  uint32_t router = b.Go(1);
  uint32_t shutdown = b.Go(1);
  for (int k = 0; k < 2; ++k) {
    H s = b.At(b.SendBegin(1, jobs), send_site);
    H q = b.At(b.Select(router, {{jobs, false}, {quit, false}}, 0), sel_site);
    b.At(TB::CaseOf(q, 0), jobs_case);
    b.At(TB::CaseOf(q, 1), quit_case);
    b.Complete(s);
  }
  b.Close(shutdown, quit);
  b.End(shutdown);
  H q = b.At(b.Select(router, {{jobs, false}, {quit, false}}, 1, false, true), sel_site);
  b.At(TB::CaseOf(q, 0), jobs_case);
  b.At(TB::CaseOf(q, 1), quit_case);
  b.End(router);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::GlobalDeadlock), 1);
  EXPECT_EQ(r.First(FindingKind::GlobalDeadlock)->locations[0].line, 40u);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
}

TEST(SelectLeak, ServingLoopThatContinuesIsNotReported) {
  // Same, but after the quit case the router receives from jobs again.
  TB b;
  uint32_t jobs = b.MakeChan(1, 0);
  uint32_t quit = b.MakeChan(1, 0);
  uint32_t router = b.Go(1);
  uint32_t shutdown = b.Go(1);
  H s = b.SendBegin(1, jobs);
  b.Select(router, {{jobs, false}, {quit, false}}, 0);
  b.Complete(s);
  b.Close(shutdown, quit);
  b.Select(router, {{jobs, false}, {quit, false}}, 1, false, true);
  H s2 = b.SendBegin(1, jobs);
  b.Recv(router, jobs);
  b.Complete(s2);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::GlobalDeadlock), 0);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
}

TEST(SelectLeak, DoneClosedAfterTheConsumerEndsIsNotReported) {
  // Producer: for v { select { case out <- v: case <-ctx.Done(): return } };
  // defer close(out). The test ranges over out, then its deferred cancel
  // closes Done. Done has no sends and no make (context made it), but its
  // only close happens after the producer's last select (select -> close(out)
  // -> the range loop sees out closed -> cancel): no schedule lets that
  // select take the Done case.
  TB b;
  uint32_t out = b.MakeChan(1, 0);
  uint32_t done = b.ForeignChan();
  uint32_t producer = b.Go(1);
  for (int k = 0; k < 3; ++k) {
    b.Select(producer, {{out, true}, {done, false}}, 0);
    b.Recv(1, out);
  }
  b.Close(producer, out);
  b.End(producer);
  b.RecvClosed(1, out);
  b.Close(1, done);  // cancel
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
  EXPECT_EQ(r.Count(FindingKind::GlobalDeadlock), 0);

  // The same run with Done closed concurrently (cancel in another goroutine
  // before the loop ends) is the real leak: the select can take Done while
  // the consumer still waits for a value.
  TB b2;
  out = b2.MakeChan(1, 0);
  done = b2.ForeignChan();
  producer = b2.Go(1);
  uint32_t canceller = b2.Go(1);
  b2.Close(canceller, done);
  b2.Select(producer, {{out, true}, {done, false}}, 0);
  b2.Recv(1, out);
  auto r2 = Predict(b2);
  EXPECT_EQ(r2.Count(FindingKind::GoroutineLeak) + r2.Count(FindingKind::GlobalDeadlock), 1);
}

TEST(SelectLeak, ReceiveThatACloseCanEndIsNotReported) {
  // Fan-out: a worker sends its result in select { case results <- n: case
  // <-ctx.Done(): }, another worker cancels concurrently, and a closer
  // goroutine closes results after wg.Wait. The consumer's range receive
  // that got the worker's value is not stranded if the select takes Done:
  // the close (not ordered before the receive) ends the range loop.
  TB b;
  uint32_t results = b.MakeChan(1, 0);
  uint32_t done = b.ForeignChan();
  uint32_t wg = b.NewObject();
  b.WgAdd(1, wg, 2);
  uint32_t worker = b.Go(1);
  uint32_t failing = b.Go(1);
  uint32_t closer = b.Go(1);
  H wait = b.WaitBegin(closer, wg);
  b.Close(failing, done);  // cancel
  b.Done(failing, wg);
  b.Select(worker, {{results, true}, {done, false}}, 0);
  b.Recv(1, results);
  b.Done(worker, wg);
  b.Complete(wait);
  b.Close(closer, results);
  b.RecvClosed(1, results);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::GoroutineLeak), 0);
  EXPECT_EQ(r.Count(FindingKind::GlobalDeadlock), 0);

  // Without the closer, the receive would be left waiting: reported.
  TB b2;
  results = b2.MakeChan(1, 0);
  done = b2.ForeignChan();
  worker = b2.Go(1);
  failing = b2.Go(1);
  b2.Close(failing, done);
  b2.Select(worker, {{results, true}, {done, false}}, 0);
  b2.Recv(1, results);
  auto r2 = Predict(b2);
  EXPECT_EQ(r2.Count(FindingKind::GoroutineLeak) + r2.Count(FindingKind::GlobalDeadlock), 1);
}

// --- possible partners

TEST(Partners, BlockedReceiveAndConcurrentSend) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  H early = b.SendBegin(1, ch);       // received before g3 even starts
  uint32_t g4 = b.Go(1);
  b.Recv(g4, ch);
  b.Complete(early);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H s = b.SendBegin(g2, ch);
  b.Recv(1, ch);
  b.Complete(s);
  H blocked = b.BlockedRecv(g3, ch);
  auto t = b.Finish();
  hb::HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err));
  std::vector<uint32_t> p;
  FindPossiblePartners(hb, b.Index(blocked), &p);
  EXPECT_EQ(p, std::vector<uint32_t>{b.Index(s)});
}

TEST(Partners, BlockedLockNamesHolder) {
  TB b;
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  b.Lock(1, m);
  b.Unlock(1, m);
  H holder = b.Lock(1, m);
  H blocked = b.AddBegin(g2, Kind::MutexLock, m);
  auto t = b.Finish();
  hb::HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err));
  std::vector<uint32_t> p;
  FindPossiblePartners(hb, b.Index(blocked), &p);
  EXPECT_EQ(p, std::vector<uint32_t>{b.Index(holder)});
}

// --- information

TEST(Info, AlternativePartnerAndContention) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H s2 = b.SendBegin(g2, ch);
  H s3 = b.SendBegin(g3, ch);
  b.Recv(1, ch);
  b.Complete(s2);
  b.Recv(1, ch);
  b.Complete(s3);
  auto r = Predict(b);
  EXPECT_GE(r.Count(FindingKind::AlternativePartner), 1);
  EXPECT_GE(r.Count(FindingKind::MessageContention), 1);
  for (const Finding& f : r.findings) {
    if (f.kind == FindingKind::AlternativePartner) {
      EXPECT_EQ(f.severity, report::Severity::Info);
    }
  }
}

TEST(Info, SequentialSendersHaveNoAlternative) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t done = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  H s2 = b.SendBegin(g2, ch);
  b.Recv(1, ch);
  b.Complete(s2);
  H d = b.SendBegin(g2, done);
  b.Recv(1, done);
  b.Complete(d);
  uint32_t g3 = b.Go(1);  // starts after the first exchange
  H s3 = b.SendBegin(g3, ch);
  b.Recv(1, ch);
  b.Complete(s3);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::AlternativePartner), 0);
  EXPECT_EQ(r.Count(FindingKind::MessageContention), 0);
}

TEST(Info, SelectCaseAlternative) {
  TB b;
  uint32_t x = b.MakeChan(1, 0);
  uint32_t y = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H sx = b.SendBegin(g2, x);
  b.BlockedSend(g3, y);
  b.Select(1, {{x, false}, {y, false}}, 0);
  b.Complete(sx);
  auto r = Predict(b);
  EXPECT_EQ(r.Count(FindingKind::SelectCaseAlternatives), 1);
}

TEST(Info, OptionsTurnFamiliesOff) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  b.Send(g2, ch);
  b.Send(g3, ch);
  b.Close(1, ch);
  PredictOptions opt;
  opt.info = false;
  auto r = Predict(b, opt);
  EXPECT_EQ(r.Count(FindingKind::MessageContention), 0);
  EXPECT_EQ(r.Count(FindingKind::SendOnClosed), 2);
}

// --- de-duplication

TEST(Predict, LoopIterationsAreOneFinding) {
  TB b;
  uint32_t ch = b.MakeChan(1, 16);
  uint32_t send_site = b.Site("w.go", 7);
  uint32_t g2 = b.Go(1);
  for (int k = 0; k < 5; ++k) b.At(b.Send(g2, ch), send_site);
  b.Close(1, ch);
  auto r = Predict(b);
  ASSERT_EQ(r.Count(FindingKind::SendOnClosed), 1);
  EXPECT_EQ(r.First(FindingKind::SendOnClosed)->occurrences, 5u);
}

}  // namespace
}  // namespace gordian::detect
