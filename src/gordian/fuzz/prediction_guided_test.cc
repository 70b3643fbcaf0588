// Tests of the prediction-guided strategy on traces built in memory: which
// alternatives of a run become schedules, and what those schedules order.
#include "gordian/fuzz/strategies.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "gordian/fuzz/strategy_testing.h"
#include "gordian/hb/trace_builder.h"

namespace gordian::fuzz {
namespace {

using hb::testing::TraceBuilder;

struct Proposals {
  std::vector<Candidate> all;
  const Candidate* Find(const std::string& key) const {
    for (const Candidate& c : all) {
      if (c.key == key) return &c;
    }
    return nullptr;
  }
  size_t Count(const std::string& prefix) const {
    return std::count_if(all.begin(), all.end(),
                         [&](const Candidate& c) { return c.key.rfind(prefix, 0) == 0; });
  }
};

Proposals Propose(const trace::Trace& t) {
  return Proposals{testing::DefaultProposals<PredictionGuided>(t)};
}

using testing::PosOf;

std::string Keys(const Proposals& p) {
  std::string k;
  for (const Candidate& c : p.all) k += c.key + "\n";
  return k;
}

// Two senders race for main's first receive; the run paired it with 1.0's
// send. The alternative: 1.1's send first, and 1.0's send out of the
// prefix so that the receive meets 1.1's.
TEST(PredictionGuided, AlternativePartnerLeavesTheRecordedPartnerOut) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  auto s1 = b.At(b.SendBegin(g2, ch), b.Site("a.go", 10));
  b.At(b.Recv(1, ch), b.Site("a.go", 30));
  b.Complete(s1);
  auto s2 = b.At(b.SendBegin(g3, ch), b.Site("a.go", 20));
  b.At(b.Recv(1, ch), b.Site("a.go", 31));
  b.Complete(s2);
  Proposals p = Propose(b.Finish());
  const Candidate* c = p.Find("partner recv a.go:30 <- send a.go:20");
  ASSERT_NE(c, nullptr) << Keys(p);
  EXPECT_EQ(c->strategy, "prediction");
  const schedule::Schedule& s = c->schedule;
  ASSERT_GE(PosOf(s, "a.go:20"), 0);
  ASSERT_GE(PosOf(s, "a.go:30"), 0);
  EXPECT_LT(PosOf(s, "a.go:20"), PosOf(s, "a.go:30"));
  EXPECT_EQ(PosOf(s, "a.go:10"), -1) << "the recorded partner must not be queued first";
}

// A receive whose only possible sender is its partner has no alternative.
TEST(PredictionGuided, NoAlternativeWhenHappensBeforeOrdersTheSenders) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1);
  auto s1 = b.At(b.SendBegin(g2, ch), b.Site("a.go", 10));
  b.At(b.Recv(1, ch), b.Site("a.go", 30));
  b.Complete(s1);
  uint32_t g3 = b.Go(1);  // spawned after the first receive
  auto s2 = b.At(b.SendBegin(g3, ch), b.Site("a.go", 20));
  b.At(b.Recv(1, ch), b.Site("a.go", 31));
  b.Complete(s2);
  Proposals p = Propose(b.Finish());
  EXPECT_EQ(p.Count("partner"), 0u) << Keys(p);
}

// A select took case 0; case 1's channel had a sender that blocked
// forever. The alternative forces case 1 with that sender first.
TEST(PredictionGuided, OtherSelectCaseWithItsPartnerFirst) {
  TraceBuilder b;
  uint32_t c0 = b.MakeChan(1, 0), c1 = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  auto s0 = b.At(b.SendBegin(g2, c0), b.Site("a.go", 10));
  b.At(b.BlockedSend(g3, c1), b.Site("a.go", 20));
  auto sel = b.At(b.Select(1, {{c0, false}, {c1, false}}, 0, /*has_default=*/true),
                  b.Site("a.go", 40));
  b.Complete(s0);
  Proposals p = Propose(b.Finish());
  const Candidate* c = p.Find("select a.go:40 case 1 <- a.go:20");
  ASSERT_NE(c, nullptr) << Keys(p);
  int at = PosOf(c->schedule, "a.go:40");
  ASSERT_GE(at, 0);
  EXPECT_EQ(c->schedule.ops[at].choice, 1);
  EXPECT_LT(PosOf(c->schedule, "a.go:20"), at);
  EXPECT_EQ(PosOf(c->schedule, "a.go:10"), -1);
  // It chose a case although it has a default: the default is an alternative.
  const Candidate* d = p.Find("select a.go:40 default");
  ASSERT_NE(d, nullptr) << Keys(p);
  int dat = PosOf(d->schedule, "a.go:40");
  ASSERT_GE(dat, 0);
  EXPECT_EQ(d->schedule.ops[dat].choice, schedule::kChoiceDefault);
  (void)sel;
}

// Two goroutines took a lock one after the other, ordered by nothing but
// the lock: the other order is proposed, with the engine without lock
// edges.
TEST(PredictionGuided, LockOrderFlipped) {
  TraceBuilder b;
  uint32_t m = b.NewObject();
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  b.At(b.Lock(g2, m), b.Site("a.go", 10));
  b.At(b.Unlock(g2, m), b.Site("a.go", 11));
  b.At(b.Lock(g3, m), b.Site("a.go", 20));
  b.At(b.Unlock(g3, m), b.Site("a.go", 21));
  Proposals p = Propose(b.Finish());
  const Candidate* c = p.Find("lock a.go:20 before a.go:10");
  ASSERT_NE(c, nullptr) << Keys(p);
  ASSERT_GE(PosOf(c->schedule, "a.go:20"), 0);
  ASSERT_GE(PosOf(c->schedule, "a.go:10"), 0);
  EXPECT_LT(PosOf(c->schedule, "a.go:20"), PosOf(c->schedule, "a.go:10"));
}

// Loops repeat an alternative at the same sites: it is proposed once.
TEST(PredictionGuided, OneProposalPerSitesInARun) {
  TraceBuilder b;
  uint32_t ch = b.MakeChan(1, 0);
  uint32_t g2 = b.Go(1), g3 = b.Go(1);
  uint32_t sa = b.Site("a.go", 10), sb = b.Site("a.go", 20), sr = b.Site("a.go", 30);
  for (int i = 0; i < 3; i++) {
    auto s1 = b.At(b.SendBegin(g2, ch), sa);
    b.At(b.Recv(1, ch), sr);
    b.Complete(s1);
    auto s2 = b.At(b.SendBegin(g3, ch), sb);
    b.At(b.Recv(1, ch), sr);
    b.Complete(s2);
  }
  Proposals p = Propose(b.Finish());
  std::vector<std::string> keys;
  for (const Candidate& c : p.all) keys.push_back(c.key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end()) << Keys(p);
  EXPECT_NE(p.Find("partner recv a.go:30 <- send a.go:20"), nullptr) << Keys(p);
}

}  // namespace
}  // namespace gordian::fuzz
