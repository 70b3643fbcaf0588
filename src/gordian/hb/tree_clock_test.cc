// Tests of the radix-tree clock arena: queries, joins and their flags,
// structural sharing, immutability of frozen (snapshotted) trees, recycling
// of owned nodes, and a randomized comparison against plain vectors.
#include "gordian/hb/tree_clock.h"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::hb {
namespace {

using Clock = ClockArena::Clock;

std::vector<uint32_t> Mat(const ClockArena& a, uint32_t root) {
  std::vector<uint32_t> v(a.width());
  a.Materialize(root, v.data());
  return v;
}

TEST(ClockArena, DepthFollowsWidth) {
  ClockArena a;
  constexpr uint32_t f = ClockArena::kFan;
  a.Init(10);
  EXPECT_EQ(a.depth(), 1u);
  a.Init(f);
  EXPECT_EQ(a.depth(), 1u);
  a.Init(f + 1);
  EXPECT_EQ(a.depth(), 2u);
  a.Init(f * f * f);
  EXPECT_EQ(a.depth(), 3u);
  a.Init(f * f * f + 1);
  EXPECT_EQ(a.depth(), 4u);
}

TEST(ClockArena, SetMaxGetMaterialize) {
  ClockArena a;
  // Two levels: the last index is in the root's last leaf.
  const uint32_t w = ClockArena::kFan * ClockArena::kFan, last = w - 1;
  a.Init(w);
  ASSERT_EQ(a.depth(), 2u);
  Clock c = a.NewClock();
  EXPECT_EQ(a.Get(c.root, last), 0u);
  EXPECT_TRUE(a.SetMax(&c, last, 7));
  EXPECT_FALSE(a.SetMax(&c, last, 5));  // only raises
  EXPECT_TRUE(a.SetMax(&c, 3, 2));
  EXPECT_EQ(a.Get(c.root, last), 7u);
  EXPECT_EQ(a.Get(c.root, 3), 2u);
  EXPECT_EQ(a.Get(c.root, 4), 0u);
  std::vector<uint32_t> want(w, 0);
  want[last] = 7;
  want[3] = 2;
  EXPECT_EQ(Mat(a, c.root), want);
  // Two paths: a root, two leaves (the rest is the zero node).
  EXPECT_EQ(a.nodes_in_use(), 1u + 3u);
}

TEST(ClockArena, JoinFlagsAndDomination) {
  ClockArena a;
  a.Init(200);
  Clock x = a.NewClock(), y = a.NewClock();
  a.SetMax(&x, 1, 5);
  a.SetMax(&y, 1, 3);
  a.SetMax(&y, 150, 9);
  uint32_t f = a.Join(&x, &y);
  EXPECT_EQ(f, ClockArena::kChanged | ClockArena::kAboveSrc);
  EXPECT_EQ(a.Get(x.root, 1), 5u);
  EXPECT_EQ(a.Get(x.root, 150), 9u);
  EXPECT_EQ(a.Get(y.root, 1), 3u);  // the source is unchanged
  // Joining what it already knows changes nothing.
  EXPECT_EQ(a.Join(&x, &y), uint32_t(ClockArena::kAboveSrc));
  EXPECT_EQ(a.Join(&x, &y), uint32_t(ClockArena::kAboveSrc));  // memo hit
  // A source that dominates: the destination becomes the source's tree.
  Clock z = a.NewClock();
  a.Assign(&z, &x);
  a.SetMax(&z, 7, 1);
  f = a.Join(&x, &z);
  EXPECT_EQ(f, uint32_t(ClockArena::kChanged));
  EXPECT_EQ(x.root, z.root);
  // Same root: O(1), nothing changes.
  EXPECT_EQ(a.Join(&x, &z), 0u);
  // Joining the zero clock.
  Clock e = a.NewClock();
  EXPECT_EQ(a.Join(&x, &e), uint32_t(ClockArena::kAboveSrc));
  EXPECT_EQ(a.Join(&e, &x), uint32_t(ClockArena::kChanged));
  EXPECT_EQ(e.root, x.root);
}

TEST(ClockArena, FrozenTreesAreImmutable) {
  ClockArena a;
  a.Init(5000);
  Clock c = a.NewClock();
  for (uint32_t i = 0; i < 5000; i += 37) a.SetMax(&c, i, i + 1);
  a.Freeze(&c);
  uint32_t snap = c.root;
  std::vector<uint32_t> before = Mat(a, snap);
  uint64_t nodes = a.nodes_in_use();
  // One change after the snapshot copies one path (depth nodes).
  a.SetMax(&c, 4000, 100000);
  EXPECT_EQ(a.nodes_in_use(), nodes + a.depth());
  EXPECT_EQ(Mat(a, snap), before);
  EXPECT_EQ(a.Get(c.root, 4000), 100000u);
  // Further changes to the same path are in place.
  a.SetMax(&c, 4001, 5);
  EXPECT_EQ(a.nodes_in_use(), nodes + a.depth());
  Clock d = a.NewClock();
  a.SetMax(&d, 4001, 50);
  a.Join(&c, &d);
  EXPECT_EQ(Mat(a, snap), before);
}

TEST(ClockArena, ClearRecyclesOwnedNodesOnly) {
  ClockArena a;
  a.Init(3000);
  Clock c = a.NewClock();
  for (uint32_t i = 0; i < 3000; i += 100) a.SetMax(&c, i, 1);
  a.Freeze(&c);
  uint32_t snap = c.root;
  std::vector<uint32_t> before = Mat(a, snap);
  a.SetMax(&c, 50, 2);  // owned path
  uint64_t nodes = a.nodes_in_use();
  a.Clear(&c);
  EXPECT_EQ(a.nodes_in_use(), nodes - a.depth());
  EXPECT_EQ(c.root, ClockArena::kZeroNode);
  EXPECT_EQ(Mat(a, snap), before);  // the shared nodes stay
}

// The mutex-chain shape (bench/synthetic_trace.h): goroutine i acquires a lock
// whose clock knows goroutines 0..i-1, then releases it. Dense rows cost
// O(n^2); shared trees cost O(n * depth) nodes.
TEST(ClockArena, MutexChainSharesStructure) {
  const uint32_t n = 20000;
  ClockArena a;
  a.Init(n);
  Clock mutex = a.NewClock();
  std::vector<uint32_t> snaps;
  for (uint32_t i = 0; i < n; ++i) {
    Clock g = a.NewClock();
    a.SetMax(&g, 0, 1);  // knows main's spawn
    a.Join(&g, &mutex);
    a.SetMax(&g, i, 2);  // its own Unlock epoch in the released clock
    a.Freeze(&g);
    snaps.push_back(g.root);
    a.Assign(&mutex, &g);
  }
  EXPECT_LT(a.nodes_in_use(), uint64_t(n) * (a.depth() + 2));
  for (uint32_t i = 0; i < n; i += 997) {
    EXPECT_EQ(a.Get(snaps[i], i), 2u);
    if (i > 0) {
      EXPECT_EQ(a.Get(snaps[i], i - 1), 2u);
    }
    if (i + 1 < n) {
      EXPECT_EQ(a.Get(snaps[i], i + 1), 0u);
    }
  }
}

// Random operations on a handful of clocks, checked against plain vectors;
// every frozen snapshot must keep its contents to the end.
void RandomOps(uint32_t width, uint32_t steps, uint32_t seed) {
  ClockArena a;
  a.Init(width);
  std::mt19937 rng(seed);
  const uint32_t k = 6;
  std::vector<Clock> c(k);
  std::vector<std::vector<uint32_t>> ref(k, std::vector<uint32_t>(width, 0));
  for (auto& x : c) x = a.NewClock();
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> snaps;
  // Entries concentrate on a few hot indices so that joins overlap.
  auto index = [&]() {
    return rng() % 3 == 0 ? rng() % width : (rng() % 40) * (width / 40);
  };
  for (uint32_t step = 0; step < steps; ++step) {
    uint32_t i = rng() % k, j = rng() % k;
    switch (rng() % 6) {
      case 0:
      case 1: {
        uint32_t x = index();
        uint32_t v = 1 + rng() % 1000;
        bool rose = ref[i][x] < v;
        ASSERT_EQ(a.SetMax(&c[i], x, v), rose);
        ref[i][x] = std::max(ref[i][x], v);
        break;
      }
      case 2: {
        if (i == j) break;
        bool changed = false, above = false;
        for (uint32_t x = 0; x < width; ++x) {
          uint32_t m = std::max(ref[i][x], ref[j][x]);
          changed |= m != ref[i][x];
          above |= m != ref[j][x];
          ref[i][x] = m;
        }
        uint32_t f = a.Join(&c[i], &c[j]);
        ASSERT_EQ((f & ClockArena::kChanged) != 0, changed) << step;
        if (above) {
          ASSERT_NE(f & ClockArena::kAboveSrc, 0u) << step;  // may be conservative
        }
        break;
      }
      case 3:
        a.Freeze(&c[i]);
        snaps.push_back({c[i].root, ref[i]});
        break;
      case 4:
        if (i == j) break;
        a.Assign(&c[i], &c[j]);
        ref[i] = ref[j];
        break;
      case 5:
        if (rng() % 8 == 0) {
          a.Clear(&c[i]);
          std::fill(ref[i].begin(), ref[i].end(), 0u);
        }
        break;
    }
  }
  for (uint32_t i = 0; i < k; ++i) {
    ASSERT_EQ(Mat(a, c[i].root), ref[i]);
    for (uint32_t x = 0; x < width; x += 7) ASSERT_EQ(a.Get(c[i].root, x), ref[i][x]);
  }
  for (const auto& [root, want] : snaps) ASSERT_EQ(Mat(a, root), want);
}

TEST(ClockArena, RandomOpsMatchVectors) {
  RandomOps(20, 3000, 1);      // one leaf
  RandomOps(100, 3000, 2);     // two levels, partial last leaf
  RandomOps(1000, 3000, 3);
  RandomOps(40000, 600, 4);    // four levels
}

// A frozen clock with the given (index, value) entries, each written with
// stamp (0: unstamped, as an object's clock).
Clock Frozen(ClockArena& a, std::initializer_list<std::pair<uint32_t, uint32_t>> entries,
             uint64_t stamp = 0) {
  Clock c = a.NewClock();
  for (auto [i, v] : entries) a.SetMax(&c, i, v, stamp);
  a.Freeze(&c);
  return c;
}

TEST(ClockArena, ProvenanceTakesOrKeepsWholeNodes) {
  // Goroutine 1's clock writes nodes stamped (1, 4). A source that knows
  // goroutine 1 at 4 includes them: the join takes the source's tree
  // without comparing entries, even where the entries would say otherwise
  // (the stamp is a promise the replay keeps; here it is a test's fiat).
  ClockArena a;
  a.Init(2000);
  Clock g = Frozen(a, {{1500, 9}}, ClockArena::Stamp(1, 4));
  Clock src = Frozen(a, {{1500, 3}, {7, 2}});
  uint32_t f = a.Join(&g, ClockArena::Extra{1, 4}, &src, ClockArena::Extra{1, 4}, ClockArena::Stamp(1, 4));
  EXPECT_EQ(g.root, src.root);
  EXPECT_EQ(f, uint32_t(ClockArena::kChanged));
  // (That join stamped src's root (1, 4): goroutine 1's clock holds it.)
  // Goroutine 3's nodes, stamped (3, 4), against a source that knows it at
  // 3 only: entries are compared.
  Clock h = Frozen(a, {{1500, 9}}, ClockArena::Stamp(3, 4));
  f = a.Join(&h, ClockArena::Extra{3, 4}, &src, ClockArena::Extra{3, 3}, ClockArena::Stamp(3, 4));
  EXPECT_EQ(a.Get(h.root, 1500), 9u);
  EXPECT_EQ(a.Get(h.root, 7), 2u);
  EXPECT_EQ(f, uint32_t(ClockArena::kChanged | ClockArena::kAboveSrc));
  // A destination that knows the source's nodes' stamp keeps its own tree.
  Clock s2 = Frozen(a, {{3, 5}}, ClockArena::Stamp(2, 6));
  Clock d2 = a.NewClock();
  a.SetMax(&d2, 2, 6);
  a.SetMax(&d2, 3, 5);
  uint32_t before = d2.root;
  f = a.Join(&d2, {}, &s2, {}, 0);
  EXPECT_EQ(d2.root, before);
  EXPECT_EQ(f, uint32_t(ClockArena::kAboveSrc));
}

}  // namespace
}  // namespace gordian::hb
