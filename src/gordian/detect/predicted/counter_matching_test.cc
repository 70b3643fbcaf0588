// Tests of the counter matching (counter_matching.h): the linear check for
// increments of one goroutine against the flow network, on random runs. A
// zero-weight increment in a second goroutine changes no answer but sends
// MatchCounter down the flow path, so the two can be compared.
#include "gordian/detect/predicted/counter_matching.h"

#include <gtest/gtest.h>

#include <random>

#include "gordian/hb/trace_builder.h"

namespace gordian::detect {
namespace {

using hb::testing::TraceBuilder;

// main Adds in steps; after some steps it hands the next worker a token (a
// send the worker receives), so the worker sees the Adds up to there; some
// workers take no token and see none. Each worker then Dones its weight.
struct CounterRun {
  trace::Trace t;
  std::vector<CounterOp> adds, dones;
  uint32_t other_add = 0;  // an Add(0) of a second goroutine
};

CounterRun MakeRun(std::mt19937* rng) {
  TraceBuilder b;
  CounterRun r;
  uint32_t wg = b.NewObject();
  uint32_t ch = b.MakeChan(1, 0);
  std::uniform_int_distribution<int> weight(1, 3), coin(0, 3);
  int steps = 1 + int((*rng)() % 12);
  std::vector<TraceBuilder::H> adds, dones;
  std::vector<uint32_t> workers;
  uint32_t other = b.Go(1);
  TraceBuilder::H zero = b.WgAdd(other, wg, 0);
  for (int i = 0; i < steps; i++) {
    adds.push_back(b.WgAdd(1, wg, weight(*rng)));
    uint32_t w = b.Go(1);
    workers.push_back(w);
    if (coin(*rng) != 0) {  // most workers wait for the token
      TraceBuilder::H s = b.SendBegin(1, ch);
      b.Recv(w, ch);
      b.Complete(s);
    }
  }
  for (uint32_t w : workers) {
    int n = weight(*rng);
    for (int k = 0; k < n; k++) dones.push_back(b.Done(w, wg));
  }
  r.t = b.Finish();
  for (auto h : adds) r.adds.push_back({b.Index(h), r.t.records[b.Index(h)].val});
  for (auto h : dones) r.dones.push_back({b.Index(h), 1});
  r.other_add = b.Index(zero);
  return r;
}

TEST(CounterMatching, OneGoroutineAgreesWithTheFlowNetwork) {
  std::mt19937 rng(7);
  int unsafe = 0;
  for (int iter = 0; iter < 400; iter++) {
    CounterRun r = MakeRun(&rng);
    hb::HappensBefore hb;
    std::string err;
    ASSERT_TRUE(hb.Build(r.t, &err)) << err;
    CounterResult fast = MatchCounter(hb, r.adds, r.dones, 1u << 30);
    std::vector<CounterOp> with_other = r.adds;
    with_other.push_back({r.other_add, 0});
    CounterResult flow = MatchCounter(hb, with_other, r.dones, 1u << 30);
    ASSERT_FALSE(fast.gave_up || flow.gave_up);
    ASSERT_EQ(fast.safe, flow.safe) << "run " << iter;
    if (!fast.safe) {
      unsafe++;
      // The witness is a decrement whose visible increments cannot cover
      // it: no Add it sees would be left for it (checked loosely: it is one
      // of the decrements).
      bool found = false;
      for (const CounterOp& d : r.dones) found = found || d.rec == fast.unmatched;
      EXPECT_TRUE(found);
    }
  }
  // Both answers occur, so the comparison means something.
  EXPECT_GT(unsafe, 20);
  EXPECT_LT(unsafe, 380);
}

// The usual WaitGroup at scale: one goroutine Adds 5,000 times, each
// worker it spawns after an Add Dones once. The flow network's chain made
// this quadratic; under a small edge budget it gave up.
TEST(CounterMatching, ManyWorkersOfOneSpawner) {
  TraceBuilder b;
  uint32_t wg = b.NewObject();
  std::vector<TraceBuilder::H> adds, dones;
  for (int i = 0; i < 5000; i++) {
    adds.push_back(b.WgAdd(1, wg, 1));
    uint32_t w = b.Go(1);
    dones.push_back(b.Done(w, wg));
  }
  trace::Trace t = b.Finish();
  hb::HappensBefore hb;
  std::string err;
  ASSERT_TRUE(hb.Build(t, &err)) << err;
  std::vector<CounterOp> a, d;
  for (auto h : adds) a.push_back({b.Index(h), 1});
  for (auto h : dones) d.push_back({b.Index(h), 1});
  CounterResult m = MatchCounter(hb, a, d, 1000);
  EXPECT_TRUE(m.safe);
  EXPECT_FALSE(m.gave_up) << "one goroutine's increments need no flow network";
  // The last worker's Done moved before its Add: unsafe, and that Done is
  // the witness (it sees one Add fewer than it needs).
  d.back().weight = 2;
  m = MatchCounter(hb, a, d, 1000);
  EXPECT_FALSE(m.safe);
  EXPECT_EQ(m.unmatched, d.back().rec);
}

}  // namespace
}  // namespace gordian::detect
