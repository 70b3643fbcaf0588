// Tests of the occurred detectors (occurred.h) on hand-built traces: what a
// golden file (testdata/golden/occurred_*.trace) cannot say, such as the
// words of a finding's message.
#include "gordian/detect/occurred.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "gordian/detect/predict.h"
#include "gordian/detect/trace_builder_test.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using report::Primitive;
using report::Role;
using testing::TraceBuilder;
using trace::Kind;

std::vector<Finding> Of(const std::vector<Finding>& all, FindingKind k) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.kind == k) out.push_back(f);
  }
  return out;
}

std::string Kinds(const std::vector<Finding>& all) {
  std::string s;
  for (const Finding& f : all) s += std::string(report::KindName(f.kind)) + " ";
  return s;
}

// ---------------------------------------------------------------------------
// Closed channels

TEST(OccurredClosed, SendOnClosed) {
  TraceBuilder b;
  uint32_t mk = b.Site("main.go", 5), spawn = b.Site("main.go", 6),
           cl = b.Site("main.go", 10), send = b.Site("main.go", 12);
  b.Op(1, Kind::ChanMake, mk, 1, 0);
  uint32_t g = b.Go(1, spawn);
  b.Op(g, Kind::ChanClose, cl, 1, 0);
  b.Begin(1, Kind::ChanSend, send, 1, 0, trace::kClosed);
  b.Op(1, Kind::Panic, send, 0, b.Str("send on closed channel"));
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  const Finding& f = all[0];
  EXPECT_EQ(f.kind, FindingKind::SendOnClosed);
  EXPECT_EQ(f.status, report::Status::Occurred);
  EXPECT_EQ(f.severity, report::Severity::Bug);
  ASSERT_EQ(f.locations.size(), 2u);
  EXPECT_EQ(f.locations[0].line, 12u);
  EXPECT_EQ(f.locations[0].role, Role::Send);
  EXPECT_EQ(f.locations[0].goroutine, "1");
  EXPECT_EQ(f.locations[0].file, "/mod/main.go");
  EXPECT_EQ(f.locations[1].line, 10u);
  EXPECT_EQ(f.locations[1].role, Role::Close);
  EXPECT_EQ(f.locations[1].goroutine, "1.0");
  EXPECT_NE(f.message.find("closed by goroutine 1.0 at main.go:10"), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("made at main.go:5"), std::string::npos) << f.message;
  // Interleaving in stamp order: the close, then the send.
  ASSERT_EQ(f.interleaving.size(), 2u);
  EXPECT_EQ(f.interleaving[0].loc.line, 10u);
  EXPECT_EQ(f.interleaving[1].loc.line, 12u);
  // Both goroutines, with the spawn site of 1.0.
  ASSERT_EQ(f.goroutines.size(), 2u);
  EXPECT_EQ(f.goroutines[1].id, "1.0");
  EXPECT_EQ(f.goroutines[1].spawn_line, 6u);
}

// ---------------------------------------------------------------------------
// Sync misuse

TEST(OccurredSync, NegativeWaitGroup) {
  TraceBuilder b;
  uint32_t add = b.Site("w.go", 5), done = b.Site("w.go", 9), done2 = b.Site("w.go", 11);
  b.Op(1, Kind::WgAdd, add, 1, 1, 0, 1);
  uint32_t g = b.Go(1, add);
  b.Op(g, Kind::WgAdd, done, 1, static_cast<uint32_t>(-1), 0, 0);
  b.Op(1, Kind::WgAdd, done2, 1, static_cast<uint32_t>(-1), trace::kFailed,
       static_cast<uint16_t>(-1));
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  const Finding& f = all[0];
  EXPECT_EQ(f.kind, FindingKind::NegativeWaitGroup);
  EXPECT_EQ(f.locations[0].line, 11u);
  EXPECT_EQ(f.locations[0].role, Role::Done);
  EXPECT_NE(f.message.find("counter was 0, making it -1"), std::string::npos) << f.message;
  // The Done of goroutine 1.0 and the Add are the other locations.
  bool has_add = false, has_other_done = false;
  for (const auto& l : f.locations) {
    has_add |= l.role == Role::Add && l.line == 5;
    has_other_done |= l.role == Role::Done && l.line == 9;
  }
  EXPECT_TRUE(has_add);
  EXPECT_TRUE(has_other_done);
}

// ---------------------------------------------------------------------------
// Panics

TEST(OccurredPanic, UserPanicThatCrashes) {
  TraceBuilder b;
  uint32_t p = b.Site("p.go", 7);
  b.Op(1, Kind::Panic, p, 0, b.Str("boom"));
  trace::Trace t = b.Build();  // no ProgramExit: the program died
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].kind, FindingKind::Panic);
  EXPECT_EQ(all[0].locations[0].role, Role::Panic);
  EXPECT_NE(all[0].message.find("boom"), std::string::npos);
}

// A test that provokes each recoverable misuse panic inside a func with a
// deferred recover, then passes (or, with fail, fails).
trace::Trace MisuseTest(bool fail) {
  TraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), add = b.Site("m_test.go", 5),
           neg = b.Site("m_test.go", 7), cl = b.Site("m_test.go", 10),
           cl2 = b.Site("m_test.go", 11), send = b.Site("m_test.go", 14),
           cnil = b.Site("m_test.go", 17);
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 0, b.Str("TestMisuse"));
  b.Op(tg, Kind::WgAdd, add, 1, 1, 0, 1);
  b.Op(tg, Kind::WgAdd, add, 1, static_cast<uint32_t>(-1), 0, 0);
  b.Op(tg, Kind::WgAdd, neg, 1, static_cast<uint32_t>(-1), trace::kFailed,
       static_cast<uint16_t>(-1));
  b.Op(tg, Kind::Panic, neg, 0, b.Str("sync: negative WaitGroup counter"));
  b.Op(tg, Kind::ChanClose, cl, 2);
  b.Op(tg, Kind::ChanClose, cl2, 2, 0, trace::kClosed);
  b.Op(tg, Kind::Panic, cl2, 0, b.Str("close of closed channel"));
  b.Begin(tg, Kind::ChanSend, send, 2, 0, trace::kClosed);
  b.Op(tg, Kind::Panic, send, 0, b.Str("send on closed channel"));
  b.Op(tg, Kind::ChanClose, cnil, 0);
  b.Op(tg, Kind::Panic, cnil, 0, b.Str("close of nil channel"));
  b.Op(tg, Kind::TestEnd, q, 0, 0, fail ? trace::kFailed : 0);
  b.Op(1, Kind::ProgramExit, 0, 0, fail ? 1 : 0, 0, 1);  // os.Exit by the test binary
  return b.Build();
}

TEST(OccurredPanic, RecoveredMisusePanicsAreWarnings) {
  trace::Trace t = MisuseTest(false);
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 4u) << Kinds(all);
  for (FindingKind k : {FindingKind::NegativeWaitGroup, FindingKind::CloseOfClosed,
                        FindingKind::SendOnClosed, FindingKind::CloseOfNil}) {
    ASSERT_EQ(Of(all, k).size(), 1u) << Kinds(all);
    const Finding f = Of(all, k)[0];
    EXPECT_EQ(f.severity, report::Severity::Warning) << f.message;
    EXPECT_NE(f.message.find("recovered"), std::string::npos) << f.message;
  }
}

TEST(OccurredPanic, MisusePanicsInAFailedTestStayBugs) {
  trace::Trace t = MisuseTest(true);
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 4u) << Kinds(all);
  for (const Finding& f : all) {
    EXPECT_EQ(f.severity, report::Severity::Bug) << f.message;
    EXPECT_EQ(f.message.find("recovered"), std::string::npos) << f.message;
  }
}

// ---------------------------------------------------------------------------
// Global deadlock and double lock

TEST(OccurredDeadlock, GlobalDeadlockNamesEveryBlockedGoroutine) {
  TraceBuilder b;
  uint32_t sp = b.Site("d.go", 5), snd = b.Site("d.go", 7), rcv = b.Site("d.go", 10),
           rt = b.Site("proc.go", 100, false);
  uint32_t g = b.Go(1, sp);
  uint32_t w = b.Go(1, rt);  // the recorder's watchdog
  b.Begin(g, Kind::ChanSend, snd, 1, 1);
  b.Begin(1, Kind::ChanRecv, rcv, 2, 0);
  b.Op(w, Kind::GlobalDeadlock, rt, 2);
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  const Finding& f = all[0];
  EXPECT_EQ(f.kind, FindingKind::GlobalDeadlock);
  ASSERT_EQ(f.locations.size(), 2u);
  EXPECT_EQ(f.locations[0].goroutine, "1");
  EXPECT_EQ(f.locations[0].role, Role::Recv);
  EXPECT_EQ(f.locations[1].goroutine, "1.0");
  EXPECT_EQ(f.locations[1].role, Role::Send);
  EXPECT_NE(f.message.find("goroutine 1 in receive at d.go:10"), std::string::npos) << f.message;
}

TEST(OccurredDeadlock, HungRunWithEveryGoroutineBlockedIsAGlobalDeadlock) {
  TraceBuilder b;
  uint32_t mk = b.Site("d.go", 4), sp = b.Site("d.go", 5), snd = b.Site("d.go", 7),
           rcv = b.Site("d.go", 10);
  b.Op(1, Kind::ChanMake, mk, 1, 0);
  b.Op(1, Kind::ChanMake, mk, 2, 0);
  uint32_t g = b.Go(1, sp);
  b.Begin(g, Kind::ChanSend, snd, 1, 1);
  b.Begin(1, Kind::ChanRecv, rcv, 2, 0);
  trace::Trace t = b.Build();  // no ProgramExit: killed at the wall-clock limit
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  EXPECT_EQ(all[0].kind, FindingKind::GlobalDeadlock);
  EXPECT_NE(all[0].message.find("hung"), std::string::npos) << all[0].message;
}

TEST(OccurredDoubleLock, LockHeldByAnotherGoroutineIsALeakNotADoubleLock) {
  TraceBuilder b;
  uint32_t l1 = b.Site("m.go", 3), l2 = b.Site("m.go", 9), sp = b.Site("m.go", 8);
  b.Blocking(1, Kind::MutexLock, l1, 1);
  uint32_t g = b.Go(1, sp);
  b.Begin(g, Kind::MutexLock, l2, 1);
  b.Op(1, Kind::ProgramExit, 0, 0, 0);
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  EXPECT_TRUE(Of(all, FindingKind::DoubleLock).empty());
  auto leaks = Of(all, FindingKind::GoroutineLeak);
  ASSERT_EQ(leaks.size(), 1u) << Kinds(all);
  EXPECT_EQ(leaks[0].primitive, Primitive::Mutex);
  // The holder's Lock is the partner.
  bool holder = false;
  for (const auto& l : leaks[0].locations) holder |= l.role == Role::Lock && l.line == 3;
  EXPECT_TRUE(holder);
  EXPECT_NE(leaks[0].message.find("goroutine 1 locked it at m.go:3"), std::string::npos)
      << leaks[0].message;
}

// ---------------------------------------------------------------------------
// Leaks

TEST(OccurredLeak, BlockedAtTestEndIsAttributedToTheTest) {
  TraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), sp = b.Site("l_test.go", 10),
           snd = b.Site("l_test.go", 11);
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 3, b.Str("TestLeak"));
  b.Op(tg, Kind::ChanMake, sp, 1, 0);
  uint32_t g = b.Go(tg, sp);
  b.Begin(g, Kind::ChanSend, snd, 1, 1);
  b.Op(tg, Kind::BlockedAtTestEnd, q, g, 3);
  b.Op(tg, Kind::TestEnd, q, 3);
  b.Begin(1, Kind::ChanRecv, q, 9);  // testing internals: never a leak
  b.Op(1, Kind::ProgramExit, 0, 0, 0);
  trace::Trace t = b.Build();
  auto all = DetectOccurred(t);
  ASSERT_EQ(all.size(), 1u) << Kinds(all);
  const Finding& f = all[0];
  EXPECT_EQ(f.kind, FindingKind::GoroutineLeak);
  EXPECT_EQ(f.primitive, Primitive::ChanSend);
  EXPECT_EQ(f.test, "TestLeak");
  EXPECT_EQ(f.locations[0].line, 11u);
  EXPECT_EQ(f.locations[0].goroutine, "1.0.0");
  ASSERT_GE(f.locations.size(), 2u);
  EXPECT_EQ(f.locations[1].role, Role::Spawn);
  EXPECT_EQ(f.locations[1].line, 10u);
  EXPECT_NE(f.message.find("when TestLeak ended"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("no other goroutine receives"), std::string::npos) << f.message;
}

TEST(OccurredLeak, WithTheEngineAReceiveThatHappenedBeforeIsNoPartner) {
  // The test goroutine selects on result and a timeout, takes the timeout,
  // then tells the worker to go on; the worker's send can never be received.
  TraceBuilder b;
  uint32_t mk = b.Site("w.go", 21), sp = b.Site("w.go", 22), sel = b.Site("w.go", 25),
           cl = b.Site("w.go", 40), wait = b.Site("w.go", 36), snd = b.Site("w.go", 23);
  b.Op(1, Kind::ChanMake, mk, 1, 0);  // go-ahead
  b.Op(1, Kind::ChanMake, mk, 2, 0);  // result
  uint32_t w = b.Go(1, sp);
  size_t h = b.Begin(1, Kind::Select, sel, 0, 0, 0, 2);
  b.Op(1, Kind::SelectCase, sel, 3, 0, trace::kDirRecv, 0);  // the timeout
  b.Op(1, Kind::SelectCase, sel, 2, 0, trace::kDirRecv, 1);  // <-result
  b.Finish(h, 0, 0);
  size_t r = b.Begin(w, Kind::ChanRecv, wait, 1);
  b.Op(1, Kind::ChanClose, cl, 1, 0);
  b.Finish(r, trace::kClosed, 0);
  b.Begin(w, Kind::ChanSend, snd, 2, 1);
  b.Op(1, Kind::ProgramExit, 0, 0, 0);
  trace::Trace t = b.Build();
  hb::HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err)) << err;
  OccurredOptions opt;
  opt.hb = &hb;
  opt.partners = [&](uint32_t rec, std::vector<uint32_t>* out) {
    FindPossiblePartners(hb, rec, out);
  };
  auto leaks = Of(DetectOccurred(t, opt), FindingKind::GoroutineLeak);
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].locations[0].line, 23u);
  EXPECT_NE(leaks[0].message.find("could match it (w.go:25) all happened before it"),
            std::string::npos)
      << leaks[0].message;
}

// ---------------------------------------------------------------------------
// Concurrent receives

TEST(OccurredConcurrentRecv, HappensBeforeConcurrentReceivesThatNeverOverlapped) {
  // Two readers receive one value each from the test goroutine; in this run
  // the first reader was done before the second started, but nothing orders
  // the two receives.
  TraceBuilder b;
  uint32_t mk = b.Site("s.go", 18), sp1 = b.Site("s.go", 22), sp2 = b.Site("s.go", 26),
           r1 = b.Site("s.go", 24), r2 = b.Site("s.go", 28), s1 = b.Site("s.go", 30),
           s2 = b.Site("s.go", 31);
  b.Op(1, Kind::ChanMake, mk, 1, 0);
  uint32_t g1 = b.Go(1, sp1), g2 = b.Go(1, sp2);
  size_t snd1 = b.Begin(1, Kind::ChanSend, s1, 1, 1);
  size_t rcv2 = b.Begin(g2, Kind::ChanRecv, r2, 1);
  b.Finish(snd1);
  b.Finish(rcv2, 0, 1);
  size_t snd2 = b.Begin(1, Kind::ChanSend, s2, 1, 2);
  size_t rcv1 = b.Begin(g1, Kind::ChanRecv, r1, 1);
  b.Finish(snd2);
  b.Finish(rcv1, 0, 2);
  b.Op(1, Kind::ProgramExit, 0, 0, 0);
  trace::Trace t = b.Build();
  EXPECT_TRUE(Of(DetectOccurred(t), FindingKind::ConcurrentRecv).empty());  // no overlap
  hb::HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err)) << err;
  OccurredOptions opt;
  opt.hb = &hb;
  auto cr = Of(DetectOccurred(t, opt), FindingKind::ConcurrentRecv);
  ASSERT_EQ(cr.size(), 1u);
  EXPECT_EQ(cr[0].severity, report::Severity::Warning);
}

}  // namespace
}  // namespace gordian::detect
