// Tests of the stamp order (stamp_order.h): the radix sort against a
// stable comparison sort, and the steps a trace's records contribute.
#include "gordian/hb/stamp_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "gordian/hb/trace_builder.h"

namespace gordian::hb {
namespace {

std::vector<uint64_t> StableByHighWord(std::vector<uint64_t> v) {
  std::stable_sort(v.begin(), v.end(), [](uint64_t a, uint64_t b) { return (a >> 32) < (b >> 32); });
  return v;
}

TEST(StampOrder, RadixSortIsAStableSortOnTheHighWord) {
  std::mt19937_64 rng(12);
  // Few distinct stamps (many ties, whose low words must keep their
  // order), stamps of every width (each 11-bit digit varies), and stamps
  // that share their upper digits (passes skipped).
  for (uint64_t range : {uint64_t(7), uint64_t(5000), uint64_t(1) << 32, uint64_t(3000)}) {
    std::vector<uint64_t> v(20000);
    uint64_t base = range == 3000 ? 0x12345000ull : 0;
    for (uint64_t& x : v) x = ((base + rng() % range) << 32) | (rng() & 0xffffffffu);
    std::vector<uint64_t> want = StableByHighWord(v);
    SortByHighWord(&v);
    EXPECT_EQ(v, want) << "stamp range " << range;
  }
  std::vector<uint64_t> none;
  SortByHighWord(&none);
  EXPECT_TRUE(none.empty());
}

TEST(StampOrder, EveryStepOfEveryRecordInStampOrder) {
  testing::TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  auto r = b.RecvBegin(1, ch);       // completes after the send
  b.Send(g2, ch);
  b.Complete(r);
  b.SendBegin(g2, ch);               // never completes: its tpre only
  trace::Trace t = b.Finish();
  std::vector<uint64_t> got = StampOrder(t);

  std::vector<uint64_t> want;
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    for (uint32_t i = t.goroutines[g].begin; i < t.goroutines[g].end; ++i) {
      const trace::Record& x = t.records[i];
      // No Once.Do or Cond.Wait here: one step per record.
      want.push_back(uint64_t(x.tpost != 0 ? x.tpost : x.tpre) << 32 | g);
    }
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  // The receive's step is at its completion, after the send's.
  const trace::Record& recv = t.records[b.Index(r)];
  ASSERT_NE(recv.tpost, 0u);
  EXPECT_GT(recv.tpost, recv.tpre);
}

TEST(StampOrder, OnceDoThatRanFAndCondWaitStepTwice) {
  trace::Record once{};
  once.kind = trace::Kind::OnceDo;
  once.flags = trace::kSuccess;
  once.tpre = 3;
  once.tpost = 9;
  EXPECT_TRUE(StepsAtPre(once));
  EXPECT_TRUE(StepsAtPost(once));
  once.flags = 0;  // a Do that found f done: one step, at its completion
  EXPECT_FALSE(StepsAtPre(once));
  trace::Record wait{};
  wait.kind = trace::Kind::CondWait;
  wait.tpre = 4;
  wait.tpost = 8;
  EXPECT_TRUE(StepsAtPre(wait) && StepsAtPost(wait));
  wait.tpost = 0;  // never woken: its pre only
  EXPECT_TRUE(StepsAtPre(wait));
  EXPECT_FALSE(StepsAtPost(wait));
}

}  // namespace
}  // namespace gordian::hb
