// Tests of RewriteFinding on small built traces: the order of the rewritten
// schedule for the kinds whose plan is not just "past, then the bug", and
// the WaitGroup rule every plan keeps. Confirmation is tested in
// pipeline/confirm_test (a fake runner) and pipeline/confirm_corpus_test
// (label replay: needs Go).
#include "gordian/rewrite/rewrite.h"

#include <algorithm>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "gordian/detect/predict.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/trace/text.h"

namespace gordian::rewrite {
namespace {

using report::FindingKind;
using trace::Kind;
using TB = hb::testing::TraceBuilder;
using schedule::Op;
using schedule::Schedule;

// Position in s.ops of goroutine `path`'s operation of kind k (the first
// one, or -1).
int PosOf(const Schedule& s, const std::string& path, Kind k) {
  for (size_t i = 0; i < s.ops.size(); i++) {
    if (s.goroutines[s.ops[i].g] == path && s.ops[i].kind == k) return static_cast<int>(i);
  }
  return -1;
}

struct TraceWithEngine {
  trace::Trace t;
  hb::HappensBefore hb;
};

void Build(TB& b, TraceWithEngine* out) {
  out->t = b.Finish();
  std::string err;
  ASSERT_TRUE(out->hb.Build(out->t, &err)) << err;
}

report::Finding FindingOf(FindingKind k, std::vector<uint32_t> records) {
  report::Finding f;
  f.kind = k;
  f.status = report::Status::Predicted;
  f.records = std::move(records);
  return f;
}

// Rewrites the predicted finding of kind k over records of the run x.
void RewritePredicted(const TraceWithEngine& x, FindingKind k, std::vector<uint32_t> records,
                      Rewrite* rw) {
  std::string err;
  ASSERT_TRUE(RewriteFinding(x.t, "/nonexistent", x.hb, nullptr, FindingOf(k, std::move(records)),
                             rw, &err))
      << err;
}

// Main waits on wg, then closes ch: builds the run of b, in which send and
// that close are unordered, and rewrites their predicted send on closed
// channel.
void RewriteSendOnClosed(TB& b, TB::H send, uint32_t wg, uint32_t ch, Rewrite* rw) {
  b.Wait(1, wg);
  TB::H close = b.Close(1, ch);
  TraceWithEngine x;
  Build(b, &x);
  ASSERT_FALSE(x.hb.Before(b.Index(send), b.Index(close)));
  RewritePredicted(x, FindingKind::SendOnClosed, {b.Index(send), b.Index(close)}, rw);
}

// Rewrites the predicted leak of the stranded operation x, whose select q
// could take its case 0 instead.
void RewriteLeak(TB& b, TB::H x, TB::H q, Rewrite* rw) {
  TraceWithEngine t;
  Build(b, &t);
  RewritePredicted(t, FindingKind::GoroutineLeak,
                   {b.Index(x), b.Index(q), b.Index(TB::CaseOf(q, 0))}, rw);
}

// The run of a predicted select leak: worker 1.0 sends on result, and
// main's select over done (case 0) and result (case 1) takes result. Made
// in this order: the channels, the worker, then whatever the test adds
// before SendMeetsSelect.
struct SelectLeakRun {
  TB b;
  uint32_t result = b.MakeChan(1, 0);
  uint32_t done = b.MakeChan(1, 0);
  uint32_t w = b.Go(1);
  TB::H send, select;

  void SendMeetsSelect() {
    send = b.SendBegin(w, result);
    select = b.Select(1, {{done, false}, {result, false}}, 1);
    b.Complete(send);
  }
};

// The Add-inside-the-goroutine bug: the worker's Add is not ordered before
// main's Wait, so the close is not ordered after the worker's send. The
// schedule must put the Wait before that Add (listed after it, the Wait
// would block for a Done the schedule puts later), then close, then send.
TEST(Rewrite, SendOnClosedPutsUnorderedAddAfterTheWait) {
  TB b;
  uint32_t ch = b.MakeChan(1, 4);
  uint32_t wg = b.NewObject();
  uint32_t w = b.Go(1);
  b.WgAdd(w, wg, 1);
  TB::H send = b.Send(w, ch);
  b.Done(w, wg);
  b.End(w);
  Rewrite rw;
  ASSERT_NO_FATAL_FAILURE(RewriteSendOnClosed(b, send, wg, ch, &rw));
  const Schedule& s = rw.schedule;
  int wait = PosOf(s, "1", Kind::WgWait), add = PosOf(s, "1.0", Kind::WgAdd);
  int cl = PosOf(s, "1", Kind::ChanClose), sd = PosOf(s, "1.0", Kind::ChanSend);
  ASSERT_GE(wait, 0);
  ASSERT_GE(add, 0);
  EXPECT_LT(wait, add) << "the Wait must run before the Add it does not wait for";
  EXPECT_LT(cl, sd);
  EXPECT_EQ(s.ops.back().kind, Kind::ChanSend)
      << "the send is the last operation (the Done after it runs freely)";
  ASSERT_EQ(rw.expect.size(), 1u);
  EXPECT_EQ(rw.expect[0].expect, Expect::Closed);
}

// The shape of a test with thousands of short goroutines: each takes a
// mutex after the previous one released it, then Done; a reporter's send
// is not counted by the WaitGroup the close waits for. The close's past is
// every worker, and each worker's Lock learns about every earlier worker:
// asked goroutine by goroutine that is N^2/2 questions (refused past 50M).
// Through the Unlock each Lock took over it is a few per operation.
// The bound on a past, from the trace alone: the bug operation's
// goroutine up to it and its parent up to the go statement, not the
// parent's operations after that statement.
TEST(Rewrite, APastTooLargeIsToldFromTheGoroutineAndItsAncestors) {
  TB b;
  uint32_t mu = b.NewObject(), ch = b.MakeChan(1, 1);
  for (int i = 0; i < 3; i++) {
    b.Lock(1, mu);
    b.Unlock(1, mu);
  }
  uint32_t w = b.Go(1);
  for (int i = 0; i < 10; i++) {
    b.Lock(1, mu);
    b.Unlock(1, mu);
  }
  for (int i = 0; i < 2; i++) {
    b.Lock(w, mu);
    b.Unlock(w, mu);
  }
  TB::H send = b.Send(w, ch);
  b.End(w);
  TraceWithEngine x;
  Build(b, &x);
  const uint32_t bug = b.Index(send);
  // What the bound must count: w up to the send, main up to its spawn.
  size_t want = 0;
  uint32_t spawn = 0;
  for (const trace::Goroutine& g : x.t.goroutines) {
    for (uint32_t i = g.begin; i < g.end; i++) {
      const trace::Record& r = x.t.records[i];
      if (g.gid == 1 && r.kind == Kind::GoSpawn) spawn = i;
    }
  }
  for (const trace::Goroutine& g : x.t.goroutines) {
    const uint32_t last = g.gid == w ? bug : g.gid == 1 ? spawn : 0;
    if (last == 0) continue;
    for (uint32_t i = g.begin; i <= last; i++) want += schedule::IsControlled(x.t.records[i].kind);
  }
  ASSERT_GT(want, 8u);
  detect::Plan plan;
  plan.bug.push_back(detect::BugOp{bug});
  std::string why;
  EXPECT_FALSE(TooLargeToRewrite(x.t, x.hb.ops(), plan, &why, want)) << why;
  EXPECT_TRUE(TooLargeToRewrite(x.t, x.hb.ops(), plan, &why, want - 1));
  EXPECT_NE(why.find(fmt::format("at least {} operations", want)), std::string::npos) << why;
  // A lower bound: the linearization lists those and more (main's later
  // Unlocks come before w's Locks of the same mutex).
  Rewrite rw;
  std::string err;
  ASSERT_TRUE(RewritePlan(x.t, "/nonexistent", x.hb, plan, "test", &rw, &err)) << err;
  EXPECT_GT(rw.schedule.ops.size(), want);
}

TEST(Rewrite, PastOfThousandsOfChainedGoroutinesIsLinear) {
  constexpr uint32_t kWorkers = 12000;
  TB b;
  uint32_t results = b.MakeChan(1, kWorkers + 1);
  uint32_t mu = b.NewObject(), wg = b.NewObject();
  uint32_t reporter = b.Go(1);
  TB::H send = b.Send(reporter, results);
  b.End(reporter);
  for (uint32_t i = 0; i < kWorkers; i++) {
    b.WgAdd(1, wg, 1);
    uint32_t w = b.Go(1);
    b.Lock(w, mu);
    b.Unlock(w, mu);
    b.Done(w, wg);
    b.End(w);
  }
  Rewrite rw;
  ASSERT_NO_FATAL_FAILURE(RewriteSendOnClosed(b, send, wg, results, &rw));
  const Schedule& s = rw.schedule;
  // Every worker's Lock, Unlock and Done are in the close's past, in the
  // recorded order: no Lock before the Unlock of the worker before it.
  size_t locks = 0;
  int holder = -1;  // schedule goroutine holding mu
  for (const Op& op : s.ops) {
    if (op.kind == Kind::MutexLock) {
      EXPECT_EQ(holder, -1) << "a Lock while goroutine " << s.goroutines[holder] << " holds mu";
      holder = static_cast<int>(op.g);
      locks++;
    } else if (op.kind == Kind::MutexUnlock) {
      EXPECT_EQ(holder, static_cast<int>(op.g));
      holder = -1;
    }
  }
  EXPECT_EQ(locks, kWorkers);
  int cl = PosOf(s, "1", Kind::ChanClose), wait = PosOf(s, "1", Kind::WgWait);
  ASSERT_GE(cl, 0);
  EXPECT_LT(wait, cl);
  EXPECT_EQ(s.ops.back().kind, Kind::ChanSend) << "the reporter's send comes after the close";
}

// recv-on-closed, first form: the sender's send is not ordered before the
// close. The schedule has the close, then the receive, and not the send.
TEST(Rewrite, RecvOnClosedLeavesTheSenderOut) {
  TB b;
  uint32_t ch = b.MakeChan(1, 1);
  uint32_t p = b.Go(1);
  uint32_t c = b.Go(1);
  TB::H send = b.Send(p, ch);
  TB::H recv = b.Recv(1, ch);
  TB::H close = b.Close(c, ch);
  TraceWithEngine x;
  Build(b, &x);
  Rewrite rw;
  ASSERT_NO_FATAL_FAILURE(RewritePredicted(x, FindingKind::RecvOnClosed,
                                           {b.Index(recv), b.Index(close), b.Index(send)}, &rw));
  const Schedule& s = rw.schedule;
  EXPECT_EQ(PosOf(s, "1.0", Kind::ChanSend), -1) << "the send must wait for the free run";
  int cl = PosOf(s, "1.1", Kind::ChanClose), rv = PosOf(s, "1", Kind::ChanRecv);
  ASSERT_GE(cl, 0);
  EXPECT_LT(cl, rv);
  ASSERT_EQ(rw.expect.size(), 1u);
  EXPECT_EQ(rw.expect[0].goroutine, "1");
  EXPECT_EQ(rw.expect[0].expect, Expect::Closed);
}

// A predicted select leak: the select is forced to its other case, and the
// stranded send is listed after it as blocking.
TEST(Rewrite, SelectLeakForcesTheOtherCase) {
  SelectLeakRun run;
  run.SendMeetsSelect();
  Rewrite rw;
  ASSERT_NO_FATAL_FAILURE(RewriteLeak(run.b, run.send, run.select, &rw));
  const Schedule& s = rw.schedule;
  int sel = PosOf(s, "1", Kind::Select), sd = PosOf(s, "1.0", Kind::ChanSend);
  ASSERT_GE(sel, 0);
  ASSERT_GE(sd, 0);
  EXPECT_LT(sel, sd);
  EXPECT_EQ(s.ops[sel].choice, 0);
  EXPECT_TRUE(s.ops[sd].blocks);
  ASSERT_EQ(rw.expect.size(), 2u);
  EXPECT_EQ(rw.expect[1].expect, Expect::Blocked);
}

// When the run has an operation that makes the other case ready (here a
// close of done, not ordered after the select), it is listed first, so the
// forced case is ready when the select runs.
TEST(Rewrite, SelectLeakListsTheOtherCasesPartnerFirst) {
  SelectLeakRun run;
  uint32_t closer = run.b.Go(1);
  run.SendMeetsSelect();
  run.b.Close(closer, run.done);
  Rewrite rw;
  ASSERT_NO_FATAL_FAILURE(RewriteLeak(run.b, run.send, run.select, &rw));
  const Schedule& s = rw.schedule;
  int cl = PosOf(s, "1.1", Kind::ChanClose), sel = PosOf(s, "1", Kind::Select);
  ASSERT_GE(cl, 0);
  EXPECT_LT(cl, sel);
  EXPECT_LT(sel, PosOf(s, "1.0", Kind::ChanSend));
  EXPECT_FALSE(rw.how.empty());
}

// A predicted recursive read lock: with the relation without lock edges,
// the writer's Lock comes between the two RLocks, and both block.
TEST(Rewrite, RecursiveRLockPutsTheWriterBetween) {
  TB b;
  uint32_t mu = b.NewObject();
  uint32_t w = b.Go(1);
  TB::H r1 = b.RLock(1, mu);
  TB::H r2 = b.RLock(1, mu);
  b.RUnlock(1, mu);
  b.RUnlock(1, mu);
  TB::H lk = b.RWLock(w, mu);
  b.RWUnlock(w, mu);
  TraceWithEngine x;
  Build(b, &x);
  hb::HbOptions o;
  o.mutex_edges = false;
  hb::HappensBefore weak(o);
  std::string err;
  ASSERT_TRUE(weak.Build(x.t, &err)) << err;
  Rewrite rw;
  ASSERT_FALSE(RewriteFinding(x.t, "/nonexistent", x.hb, nullptr,
                              FindingOf(FindingKind::DoubleLock,
                                        {b.Index(r2), b.Index(r1), b.Index(lk)}),
                              &rw, &err))
      << "needs the relation without lock edges";
  ASSERT_TRUE(RewriteFinding(x.t, "/nonexistent", x.hb, &weak,
                             FindingOf(FindingKind::DoubleLock,
                                       {b.Index(r2), b.Index(r1), b.Index(lk)}),
                             &rw, &err))
      << err;
  const Schedule& s = rw.schedule;
  ASSERT_EQ(s.ops.size(), 3u) << "r1, the Lock, r2; the RUnlocks run freely";
  EXPECT_EQ(s.goroutines[s.ops[0].g], "1");
  EXPECT_EQ(s.ops[1].kind, Kind::RWLock);
  EXPECT_TRUE(s.ops[1].blocks);
  EXPECT_EQ(s.ops[2].kind, Kind::RLock);
  EXPECT_TRUE(s.ops[2].blocks);
}

TEST(Rewrite, KindsWithoutAPlanAreRefused) {
  TB b;
  uint32_t ch = b.MakeChan(1, 0);
  TB::H c1 = b.Close(1, ch);
  TraceWithEngine x;
  Build(b, &x);
  EXPECT_FALSE(Rewritable(FindingKind::CloseOfClosed));
  Rewrite rw;
  std::string err;
  EXPECT_FALSE(RewriteFinding(x.t, "/nonexistent", x.hb, nullptr,
                              FindingOf(FindingKind::CloseOfClosed, {b.Index(c1)}), &rw, &err));
  EXPECT_NE(err.find("not rewritten"), std::string::npos) << err;
}

// A test's goroutine logs once before it tells the test it started (that
// call is ordered before the end), then calls t.Errorf that nothing orders
// before the test's end (detect/testdata/golden/testing_after_end_*.trace
// have the same shape). The second call is predicted testing-after-end.
constexpr std::string_view kLateCall = R"(// gordian text trace
site 1 fetch_test.go 20 pkg.TestFetch.func1
site 2 fetch_test.go 22 pkg.TestFetch.func1
1 go 2
2 TestStart obj=1 val="TestFetch"
2 ChanMake obj=1
2 go 3
3 TestCall obj=1 val=1 @1
send: 3 ChanSend obj=1 val=1
2 ChanRecv obj=1 val=1
call: 3 TestCall obj=1 val=2 @2
2 TestEnd obj=1
)";

// The same run with the late call after the test's end, as a replay that
// held it shows it.
constexpr std::string_view kLateCallAfterEnd = R"(// gordian text trace
site 1 fetch_test.go 20 pkg.TestFetch.func1
site 2 fetch_test.go 22 pkg.TestFetch.func1
1 go 2
2 TestStart obj=1 val="TestFetch"
2 ChanMake obj=1
2 go 3
3 TestCall obj=1 val=1 @1
3 ChanSend obj=1 val=1
2 ChanRecv obj=1 val=1
2 TestEnd obj=1
3 TestCall obj=1 val=2 @2
)";

trace::Trace ParseText(std::string_view text, trace::TextTraceInfo* info = nullptr) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(text, "fetch.trace", &t, &err, info)) << err;
  return t;
}

// The call is held at itself until the test has ended (an after_end line
// naming the goroutine's second testing call); the prefix is the past of
// the caller's last controlled operation before the call (its send, and
// the test's operations before it), that send last.
TEST(Rewrite, TestingAfterEndHoldsTheCallUntilItsTestEnded) {
  trace::TextTraceInfo info;
  TraceWithEngine x;
  x.t = ParseText(kLateCall, &info);
  std::string err;
  ASSERT_TRUE(x.hb.Build(x.t, &err)) << err;
  std::vector<report::Finding> found;
  detect::PredictBugs(x.t, x.hb, &found);
  const report::Finding* f = nullptr;
  for (const report::Finding& c : found) {
    if (c.kind == FindingKind::TestingAfterEnd) f = &c;
  }
  ASSERT_NE(f, nullptr) << "the late call is predicted";
  ASSERT_EQ(f->records.front(), info.labels.at("call"));
  EXPECT_TRUE(Rewritable(FindingKind::TestingAfterEnd));
  Rewrite rw;
  ASSERT_TRUE(RewriteFinding(x.t, "/nonexistent", x.hb, nullptr, *f, &rw, &err)) << err;
  const Schedule& s = rw.schedule;
  EXPECT_EQ(s.expect, "testing-after-end");
  ASSERT_EQ(s.after_end.size(), 1u);
  EXPECT_EQ(s.goroutines[s.after_end[0].g], "1.0.0");
  EXPECT_EQ(s.after_end[0].nth, 2u) << "the goroutine's second testing call";
  ASSERT_FALSE(s.ops.empty());
  EXPECT_EQ(s.goroutines[s.ops.back().g], "1.0.0");
  EXPECT_EQ(s.ops.back().kind, Kind::ChanSend) << "the caller's send is the prefix's last operation";
  EXPECT_LT(PosOf(s, "1.0", Kind::ChanRecv), 0) << "the test's receive is not in the send's past";
  ASSERT_EQ(rw.expect.size(), 1u);
  EXPECT_EQ(rw.expect[0].expect, Expect::AfterTestEnd);
  EXPECT_EQ(rw.expect[0].goroutine, "1.0.0");
  EXPECT_EQ(rw.expect[0].index, 1u);
  EXPECT_EQ(rw.expect[0].site, "fetch_test.go:22");
  EXPECT_NE(rw.how.find("held until its test has ended"), std::string::npos) << rw.how;

  // The line survives writing and reading the schedule.
  Schedule back;
  ASSERT_TRUE(schedule::ParseSchedule(schedule::FormatSchedule(s), &back, &err)) << err;
  ASSERT_EQ(back.after_end.size(), 1u);
  EXPECT_EQ(back.after_end[0].g, s.after_end[0].g);
  EXPECT_EQ(back.after_end[0].nth, 2u);

  // A replay whose call came after the end confirms it; the recorded order
  // (the call before the end) does not.
  EXPECT_EQ(CheckExpectations(rw.expect, ParseText(kLateCallAfterEnd)), "");
  std::string miss = CheckExpectations(rw.expect, x.t);
  EXPECT_NE(miss.find("ran before its test ended"), std::string::npos) << miss;
}

// A caller with no controlled operation before its call is not listed: the
// schedule has no prefix, only the hold (the goroutine reaches the call in
// the free run).
TEST(Rewrite, TestingAfterEndWithoutAPriorOperationIsOnlyTheHold) {
  TraceWithEngine x;
  x.t = ParseText(R"(// gordian text trace
1 go 2
2 TestStart obj=1 val="TestFetch"
2 go 3
3 TestCall obj=1 val=2
2 TestEnd obj=1
)");
  std::string err;
  ASSERT_TRUE(x.hb.Build(x.t, &err)) << err;
  std::vector<report::Finding> found;
  detect::PredictBugs(x.t, x.hb, &found);
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0].kind, FindingKind::TestingAfterEnd);
  Rewrite rw;
  ASSERT_TRUE(RewriteFinding(x.t, "/nonexistent", x.hb, nullptr, found[0], &rw, &err)) << err;
  EXPECT_TRUE(rw.schedule.ops.empty());
  ASSERT_EQ(rw.schedule.after_end.size(), 1u);
  EXPECT_EQ(rw.schedule.goroutines[rw.schedule.after_end[0].g], "1.0.0");
  EXPECT_EQ(rw.schedule.after_end[0].nth, 1u);
}

}  // namespace
}  // namespace gordian::rewrite

namespace gordian::rewrite {
namespace {

// A replay that ended with the watchdog's record hung with every goroutine
// blocked; one without it did not.
TEST(Rewrite, EndedInGlobalDeadlockReadsTheWatchdogsRecord) {
  hb::testing::TraceBuilder ended;
  uint32_t ch = ended.NewObject();
  ended.BlockedRecv(ended.Go(1), ch);
  ended.BlockedRecv(1, ch);
  trace::Trace open = ended.Finish();
  EXPECT_FALSE(EndedInGlobalDeadlock(open));
  hb::testing::TraceBuilder hung;
  ch = hung.NewObject();
  hung.BlockedRecv(hung.Go(1), ch);
  hung.BlockedRecv(1, ch);
  hung.Add(1, trace::Kind::GlobalDeadlock);
  EXPECT_TRUE(EndedInGlobalDeadlock(hung.Finish()));
}

}  // namespace
}  // namespace gordian::rewrite
