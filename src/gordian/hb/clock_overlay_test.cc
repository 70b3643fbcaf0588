// Tests of the clock overlay: a tree clock plus a few entries beyond it
// reads as the pointwise max of the two, raises stay out of a frozen tree
// until the overlay is full, and a fold moves the entries into the tree
// without changing what the clock reads; a randomized comparison against
// plain vectors.
#include "gordian/hb/clock_overlay.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::hb {
namespace {

using Clock = ClockArena::Clock;

std::vector<uint32_t> Read(const ClockArena& a, const Clock& c, const ClockOverlay& ov) {
  std::vector<uint32_t> v(a.width());
  for (uint32_t i = 0; i < a.width(); ++i) v[i] = OverlayGet(a, c, ov, i);
  return v;
}

TEST(ClockOverlay, PutGetRemove) {
  ClockOverlay ov;
  EXPECT_EQ(ov.Get(3), 0u);
  ov.Put(3, 7);
  ov.Put(9, 2);
  EXPECT_EQ(ov.Get(3), 7u);
  EXPECT_EQ(ov.Get(9), 2u);
  EXPECT_EQ(ov.extras().n, 2u);
  ov.Remove(3);
  EXPECT_EQ(ov.Get(3), 0u);
  EXPECT_EQ(ov.Get(9), 2u);
  ov.Remove(42);  // absent: nothing
  EXPECT_EQ(ov.n, 1u);
}

TEST(ClockOverlay, RaisesCopyNoPathUntilTheOverlayFolds) {
  ClockArena a;
  a.Init(3000);
  ASSERT_EQ(a.depth(), 3u);
  Clock c = a.NewClock();
  a.SetMax(&c, 2500, 4);
  a.Freeze(&c);  // shared: a SetMax would copy root, middle and leaf
  const uint64_t nodes = a.nodes_in_use();
  const uint32_t root = c.root;
  ClockOverlay ov;
  // Below the tree's entry: nothing to raise.
  EXPECT_FALSE(OverlayRaise(&a, &c, &ov, 2500, 3, 0));
  EXPECT_EQ(ov.n, 0u);
  for (uint32_t k = 0; k < ClockOverlay::kRaiseLimit; ++k) {
    EXPECT_TRUE(OverlayRaise(&a, &c, &ov, 100 + k, 10 + k, 0));
  }
  EXPECT_TRUE(OverlayRaise(&a, &c, &ov, 100, 50, 0));   // raised in place
  EXPECT_FALSE(OverlayRaise(&a, &c, &ov, 100, 40, 0));  // only raises
  EXPECT_EQ(c.root, root);
  EXPECT_EQ(a.nodes_in_use(), nodes);
  EXPECT_EQ(ov.n, ClockOverlay::kRaiseLimit);
  // One more entry folds the overlay (the neighbouring indices share their
  // path: one root, middle and leaf copied) and keeps the new entry apart.
  EXPECT_TRUE(OverlayRaise(&a, &c, &ov, 2900, 1, 0));
  EXPECT_NE(c.root, root);
  EXPECT_EQ(a.nodes_in_use(), nodes + 3);
  EXPECT_EQ(ov.n, 1u);
  EXPECT_EQ(ov.Get(2900), 1u);
  EXPECT_EQ(a.Get(c.root, 100), 50u);
  EXPECT_EQ(a.Get(c.root, 101), 11u);
  EXPECT_EQ(a.Get(root, 100), 0u);  // the frozen tree is unchanged
}

TEST(ClockOverlay, FoldKeepsTheClock) {
  ClockArena a;
  a.Init(3000);
  Clock c = a.NewClock();
  a.SetMax(&c, 7, 9);
  ClockOverlay ov;
  ov.Put(7, 4);  // below the tree: reads 9
  ov.Put(2999, 6);
  const std::vector<uint32_t> before = Read(a, c, ov);
  EXPECT_EQ(before[7], 9u);
  EXPECT_EQ(before[2999], 6u);
  FoldOverlay(&a, &c, &ov, 0);
  EXPECT_EQ(ov.n, 0u);
  EXPECT_EQ(Read(a, c, ov), before);
}

// Random raises, folds, freezes and whole-overlay copies (what a release
// into an object does) on several clocks, against plain vectors.
TEST(ClockOverlay, RandomAgainstVectors) {
  for (uint32_t width : {40u, 2000u, 40000u}) {
    std::mt19937 rng(width);
    ClockArena a;
    a.Init(width);
    constexpr uint32_t kClocks = 6;
    std::vector<Clock> c(kClocks);
    std::vector<ClockOverlay> ov(kClocks);
    std::vector<std::vector<uint32_t>> want(kClocks, std::vector<uint32_t>(width, 0));
    for (Clock& x : c) x = a.NewClock();
    for (uint32_t step = 0; step < 20000; ++step) {
      const uint32_t x = rng() % kClocks;
      const uint32_t op = rng() % 10;
      if (op < 6) {
        // Indices from a small window, so that entries repeat and share paths.
        const uint32_t i = (rng() % 64 + (step / 500) * 37) % width;
        const uint32_t v = rng() % 1000;
        const bool rose = OverlayRaise(&a, &c[x], &ov[x], i, v, 0);
        EXPECT_EQ(rose, v > want[x][i]);
        want[x][i] = std::max(want[x][i], v);
      } else if (op == 6) {
        FoldOverlay(&a, &c[x], &ov[x], 0);
      } else if (op == 7) {
        a.Freeze(&c[x]);
      } else {
        // Clock y := clock x (tree shared, overlay copied).
        const uint32_t y = rng() % kClocks;
        if (y == x) continue;
        a.Assign(&c[y], &c[x]);
        ov[y] = ov[x];
        want[y] = want[x];
      }
      if (step % 997 == 0) {
        for (uint32_t k = 0; k < kClocks; ++k) ASSERT_EQ(Read(a, c[k], ov[k]), want[k]);
      }
    }
    for (uint32_t k = 0; k < kClocks; ++k) EXPECT_EQ(Read(a, c[k], ov[k]), want[k]);
  }
}

}  // namespace
}  // namespace gordian::hb
