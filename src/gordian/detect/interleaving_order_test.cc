// Tests of the order of an occurred finding's interleaving (FinishFinding):
// each operation is listed where it took effect.
#include <gtest/gtest.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/trace_builder_test.h"

namespace gordian::detect {
namespace {

TEST(InterleavingOrder, ReceiveThatSawTheCloseComesAfterIt) {
  testing::TraceBuilder b;
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

}  // namespace
}  // namespace gordian::detect
