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

// Every window of the stamp order, one after the other.
std::vector<uint64_t> AllSteps(const trace::Trace& t, size_t window) {
  StampOrder o;
  o.Init(t, window);
  std::vector<uint64_t> all, w;
  while (o.Next(&w)) {
    EXPECT_FALSE(w.empty());
    all.insert(all.end(), w.begin(), w.end());
  }
  return all;
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
    std::vector<uint64_t> scratch;
    SortByHighWord(&v, &scratch);
    EXPECT_EQ(v, want) << "stamp range " << range;
  }
  std::vector<uint64_t> none, scratch;
  SortByHighWord(&none, &scratch);
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
  std::vector<uint64_t> got = AllSteps(t, 1 << 20);

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

// A trace of several goroutines that lock, unlock and talk over a buffered
// channel, in a random interleaving.
trace::Trace Interleaved(uint32_t seed) {
  testing::TraceBuilder b;
  std::mt19937 rng(seed);
  uint32_t ch = b.MakeChan(1, 1000);
  uint32_t mu = b.NewObject();
  std::vector<uint32_t> gs{1};
  for (int k = 0; k < 6; ++k) gs.push_back(b.Go(1));
  for (int k = 0; k < 400; ++k) {
    uint32_t g = gs[rng() % gs.size()];
    if (rng() % 2) {
      b.Lock(g, mu);
      b.Unlock(g, mu);
    } else {
      b.Send(g, ch);
    }
  }
  return b.Finish();
}

TEST(StampOrder, SmallWindowsGiveTheOrderOfOneWindow) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    trace::Trace t = Interleaved(seed);
    std::vector<uint64_t> one = AllSteps(t, size_t(1) << 30);
    std::vector<uint64_t> sorted = one;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(one, sorted);
    EXPECT_EQ(AllSteps(t, 3), one) << "seed " << seed;
    EXPECT_EQ(AllSteps(t, 50), one) << "seed " << seed;
  }
}

TEST(StampOrder, StampsGoingBackwardsLoseNoStep) {
  trace::Trace t = Interleaved(9);
  // One goroutine's records in the middle get stamps far before the
  // records around them.
  const trace::Goroutine& gr = t.goroutines[2];
  ASSERT_GT(gr.end - gr.begin, 10u);
  for (uint32_t i = gr.begin + 5; i < gr.begin + 8; ++i) {
    t.records[i].tpre = t.records[i].tpost = 1 + i - gr.begin;
  }
  std::vector<uint64_t> want = AllSteps(t, size_t(1) << 30);
  std::vector<uint64_t> got = AllSteps(t, 3);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
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
