// Tests of the order of an occurred finding's interleaving (FinishFinding):
// each operation is listed where it took effect; and of its context: the
// partners of its sends and receives that are no steps themselves.
#include <gtest/gtest.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/raw_trace_builder_test.h"

namespace gordian::detect {
namespace {

TEST(InterleavingOrder, ReceiveThatSawTheCloseComesAfterIt) {
  testing::RawTraceBuilder b;
  trace::Trace t = b.Build();
  OccurredIndex ix(t);
  report::Finding f;
  report::Step recv, close, stuck;
  recv.loc.goroutine = "1.0";
  recv.loc.tpre = 1;  // started waiting
  recv.loc.tpost = 3; // woke up: the channel was closed
  recv.what = "receive: the channel is closed";
  close.loc.goroutine = "1";
  close.loc.tpre = close.loc.tpost = 2;
  close.what = "close";
  stuck.loc.goroutine = "1.1";
  stuck.loc.tpre = 4;  // never completed
  stuck.what = "send: blocks forever";
  f.interleaving = {stuck, recv, close};
  FinishFinding(ix, &f);
  ASSERT_EQ(f.interleaving.size(), 3u);
  EXPECT_EQ(f.interleaving[0].what, "close");
  EXPECT_EQ(f.interleaving[1].what, "receive: the channel is closed");
  EXPECT_EQ(f.interleaving[2].what, "send: blocks forever");
}

TEST(InterleavingOrder, ThePartnerOfAStepsReceiveIsContext) {
  testing::RawTraceBuilder b;
  uint32_t s = b.Site("a.go", 3);
  uint32_t g = b.Go(1, s);
  b.Op(1, trace::Kind::ChanMake, s, 7, 0);
  b.Op(g, trace::Kind::ChanSend, s, 7, 1);  // value 1
  b.Op(1, trace::Kind::ChanRecv, s, 7, 1);  // got value 1
  trace::Trace t = b.Build();
  OccurredIndex ix(t);
  uint32_t send = UINT32_MAX, recv = UINT32_MAX;
  for (uint32_t i = 0; i < t.records.size(); i++) {
    if (t.records[i].kind == trace::Kind::ChanSend) send = i;
    if (t.records[i].kind == trace::Kind::ChanRecv) recv = i;
  }
  ASSERT_NE(send, UINT32_MAX);
  ASSERT_NE(recv, UINT32_MAX);

  report::Finding f;
  f.interleaving.push_back(ix.StepOf(recv, report::Role::Recv, "receive"));
  FinishFinding(ix, &f);
  ASSERT_EQ(f.context.size(), 1u);
  const report::Step& c = f.context[0];
  EXPECT_EQ(c.record, send);
  EXPECT_EQ(c.loc.goroutine, "1.0");
  EXPECT_EQ(c.loc.role, report::Role::Send);
  EXPECT_NE(c.object, 0u);
  EXPECT_EQ(c.object, f.interleaving[0].object);
  EXPECT_EQ(c.seq, 1u);
  EXPECT_EQ(f.interleaving[0].seq, 1u);
  // Its goroutine is described too (the HTML timeline names its lane).
  bool described = false;
  for (const report::GoroutineInfo& gi : f.goroutines) described |= gi.id == "1.0";
  EXPECT_TRUE(described);

  // Both sides already steps: no context.
  report::Finding both;
  both.interleaving.push_back(ix.StepOf(send, report::Role::Send, "send"));
  both.interleaving.push_back(ix.StepOf(recv, report::Role::Recv, "receive"));
  FinishFinding(ix, &both);
  EXPECT_TRUE(both.context.empty());
}

}  // namespace
}  // namespace gordian::detect
