// Tests of FindPossiblePartners on hand-built traces. The predictive
// detectors' own tests (the bug each must find and the look-alikes it must
// not report) are golden files: testdata/golden/*.trace, run by
// golden_test.cc.
#include "gordian/detect/predict.h"

#include <gtest/gtest.h>

#include "gordian/hb/trace_builder.h"

namespace gordian::detect {
namespace {

using TB = hb::testing::TraceBuilder;
using H = TB::H;
using trace::Kind;

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

}  // namespace
}  // namespace gordian::detect
