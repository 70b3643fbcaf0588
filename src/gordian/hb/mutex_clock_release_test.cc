// Tests that the engine's freeing of a mutex's clocks after its last
// recorded operation changes no clock: a run whose mutexes live briefly
// (locked by a few goroutines in turn, then never again, as a session's
// per-message mutexes) is built as recorded, and again with one more failed
// TryLock of every mutex at its very end, which keeps every mutex's clocks
// to the end of the replay. The records the two share must have the same
// clocks, with rows and with tree clocks (collected often, so that a node
// freed with a mutex's clock and reused shows as a wrong clock).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/hb/trace_builder.h"
#include "gordian/hb/tree_clock.h"

namespace gordian::hb {
namespace {

using testing::TraceBuilder;

// A random run with short-lived mutexes and RWMutexes, channel hand-offs
// and Cond waits inside a short-lived mutex's critical section. With
// keep_to_the_end, goroutine 1 then fails a TryLock of each of them.
trace::Trace ShortLivedMutexes(uint32_t seed, uint32_t goroutines, uint32_t steps,
                               bool keep_to_the_end) {
  std::mt19937 rng(seed);
  TraceBuilder b;
  b.set_auto_sites(false);
  std::vector<uint32_t> live{1};
  for (uint32_t k = 1; k < goroutines; ++k) live.push_back(b.Go(live[rng() % live.size()]));
  const uint32_t ch = b.MakeChan(1, 0);
  const uint32_t cond = b.NewObject();
  std::vector<uint32_t> mutexes, rwmutexes;
  auto pick = [&]() { return live[rng() % live.size()]; };
  for (uint32_t step = 0; step < steps; ++step) {
    switch (rng() % 5) {
      case 0:
      case 1: {
        // A mutex handed through one to three goroutines, then dropped.
        const uint32_t m = b.NewObject();
        mutexes.push_back(m);
        for (uint32_t k = 0, n = 1 + rng() % 3; k < n; ++k) {
          const uint32_t g = pick();
          b.Lock(g, m);
          b.Unlock(g, m);
        }
        if (rng() % 4 == 0) b.Lock(pick(), m);  // its last operation: a Lock, held to the end
        break;
      }
      case 2: {
        const uint32_t m = b.NewObject();
        rwmutexes.push_back(m);
        for (uint32_t k = 0, n = 1 + rng() % 3; k < n; ++k) {
          const uint32_t g = pick();
          if (rng() % 2) {
            b.RLock(g, m);
            b.RUnlock(g, m);
          } else {
            b.RWLock(g, m);
            b.RWUnlock(g, m);
          }
        }
        break;
      }
      case 3: {
        const uint32_t g = pick(), h = pick();
        if (g == h) break;
        auto s = b.SendBegin(g, ch);
        b.Recv(h, ch);
        b.Complete(s);
        break;
      }
      case 4: {
        // Cond.Wait releases the mutex its goroutine holds and takes it
        // again when woken (neither recorded); the mutex's last recorded
        // operation is the waiter's Unlock, or, when it keeps the mutex,
        // the signaller's, before the waiter takes it again.
        const uint32_t g = pick(), h = pick();
        if (g == h) break;
        const uint32_t m = b.NewObject();
        mutexes.push_back(m);
        b.Lock(g, m);
        auto w = b.CondWaitBegin(g, cond);
        b.Lock(h, m);
        b.Signal(h, cond);
        b.Unlock(h, m);
        b.CondWoken(w);
        if (rng() % 2) b.Unlock(g, m);
        break;
      }
    }
  }
  if (keep_to_the_end) {
    for (uint32_t m : mutexes) b.Add(1, trace::Kind::MutexTryLock, m);  // failed: no kSuccess
    for (uint32_t m : rwmutexes) b.Add(1, trace::Kind::RWTryLock, m);
  }
  return b.Finish();
}

// Builds t with rows or tree clocks (collected every 5 snapshots).
std::unique_ptr<HappensBefore> BuildWith(const trace::Trace& t, bool trees) {
  auto hb = std::make_unique<HappensBefore>();
  internal::tree_clock_min_width = trees ? 1 : 0xffffffffu;
  internal::tree_clock_collect_every = trees ? 5 : 0;
  std::string err;
  const bool built = hb->Build(t, &err);
  internal::tree_clock_collect_every = 0;
  internal::tree_clock_min_width = 65;
  EXPECT_TRUE(built) << err;
  return built ? std::move(hb) : nullptr;
}

TEST(MutexClockRelease, FreeingAMutexsClocksAfterItsLastOperationChangesNoClock) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const uint32_t goroutines = seed % 2 ? 6 : 90;  // one-level trees and wider ones
    const trace::Trace freed = ShortLivedMutexes(seed, goroutines, 600, false);
    const trace::Trace kept = ShortLivedMutexes(seed, goroutines, 600, true);
    ASSERT_GT(kept.records.size(), freed.records.size());
    for (bool trees : {false, true}) {
      auto a = BuildWith(freed, trees), c = BuildWith(kept, trees);
      ASSERT_TRUE(a && c);
      for (uint32_t g = 0; g < freed.goroutines.size(); ++g) {
        const auto& fg = freed.goroutines[g];
        const auto& kg = kept.goroutines[g];
        for (uint32_t pos = 0; pos < fg.end - fg.begin; ++pos) {
          ASSERT_EQ(a->PreClock(fg.begin + pos), c->PreClock(kg.begin + pos))
              << "seed " << seed << " trees " << trees << " goroutine " << g << " record " << pos;
          ASSERT_EQ(a->PostClock(fg.begin + pos), c->PostClock(kg.begin + pos))
              << "seed " << seed << " trees " << trees << " goroutine " << g << " record " << pos;
        }
      }
    }
  }
}

}  // namespace
}  // namespace gordian::hb
