// Tests of the coverage signal: what counts as new for a campaign.
#include "gordian/fuzz/coverage.h"

#include <gtest/gtest.h>

#include "gordian/hb/op_index.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

RunSignals Signals(const trace::Trace& t) {
  hb::OpIndex ops;
  ops.Build(t);
  return SignalsOf(t, ops);
}

// Two senders, one receiver: which sender went first (sites a.go:10, :20).
trace::Trace Senders(bool first_a) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 2);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  uint32_t sa = b.Site("a.go", 10), sb = b.Site("a.go", 20), sr = b.Site("a.go", 30);
  if (first_a) {
    b.At(b.Send(g2, ch), sa);
    b.At(b.Send(g3, ch), sb);
  } else {
    b.At(b.Send(g3, ch), sb);
    b.At(b.Send(g2, ch), sa);
  }
  b.At(b.Recv(1, ch), sr);
  b.At(b.Recv(1, ch), sr);
  return b.Finish();
}

TEST(Coverage, TheSameRunAddsNothingTheOtherOrderAdds) {
  Coverage c;
  EXPECT_GT(c.Add(Signals(Senders(true))), 0u);
  size_t size = c.size();
  EXPECT_EQ(c.Add(Signals(Senders(true))), 0u);
  EXPECT_EQ(c.size(), size);
  EXPECT_GT(c.Add(Signals(Senders(false))), 0u);
}

trace::Trace Chose(int chosen) {
  TraceBuilder b;
  uint32_t c0 = b.MakeChan(1, 1), c1 = b.MakeChan(1, 1);
  b.Send(1, c0);
  b.Send(1, c1);
  b.At(b.Select(1, {{c0, false}, {c1, false}}, chosen), b.Site("a.go", 40));
  return b.Finish();
}

TEST(Coverage, AnotherSelectCaseIsNew) {
  Coverage c;
  RunSignals s0 = Signals(Chose(0));
  ASSERT_EQ(s0.selects.size(), 1u);
  c.Add(s0);
  EXPECT_EQ(c.Add(Signals(Chose(0))), 0u);
  EXPECT_GT(c.Add(Signals(Chose(1))), 0u);
}

trace::Trace Blocked(bool recv_blocks, bool send_blocks) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g = b.Go(1);
  if (recv_blocks) b.At(b.BlockedRecv(g, ch), b.Site("a.go", 50));
  if (send_blocks) b.At(b.BlockedSend(1, ch), b.Site("a.go", 60));
  return b.Finish();
}

TEST(Coverage, EachSetOfBlockedOperationsIsOneSignal) {
  EXPECT_EQ(Signals(Blocked(false, false)).blocked, 0u);
  uint64_t r = Signals(Blocked(true, false)).blocked;
  uint64_t s = Signals(Blocked(false, true)).blocked;
  uint64_t both = Signals(Blocked(true, true)).blocked;
  EXPECT_NE(r, 0u);
  EXPECT_NE(r, s);
  EXPECT_NE(both, r);
  EXPECT_NE(both, s);
  EXPECT_EQ(Signals(Blocked(true, false)).blocked, r);
}

}  // namespace
}  // namespace gordian::fuzz
