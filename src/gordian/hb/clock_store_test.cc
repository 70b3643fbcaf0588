// Tests of the clock store: dense rows, delta chains and the budget.
#include "gordian/hb/clock_store.h"

#include <random>

#include <gtest/gtest.h>

namespace gordian::hb {
namespace {

TEST(ClockStore, DenseRows) {
  ClockStore s;
  s.Init(4, 1 << 20, 4);
  uint32_t a[4] = {1, 2, 3, 4};
  uint32_t id = s.Append(a, ClockStore::kZero, nullptr, 0);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(s.Get(id, i), a[i]);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(s.Get(ClockStore::kZero, i), 0u);
}

TEST(ClockStore, DeltaChainsMatchReference) {
  const uint32_t w = 300;
  ClockStore s;
  s.Init(w, 1ull << 30, 16);
  std::mt19937 rng(7);
  std::vector<uint32_t> cur(w, 0);
  std::vector<std::vector<uint32_t>> ref;
  std::vector<uint32_t> ids;
  uint32_t prev = ClockStore::kZero;
  for (int step = 0; step < 2000; ++step) {
    std::vector<uint32_t> changed;
    uint32_t k = rng() % 5 == 0 ? 200 : 1 + rng() % 6;  // sometimes wide
    std::vector<uint8_t> seen(w, 0);
    for (uint32_t j = 0; j < k; ++j) {
      uint32_t i = rng() % w;
      cur[i] += 1 + rng() % 3;
      if (!seen[i]) {
        seen[i] = 1;
        changed.push_back(i);
      }
    }
    prev = s.Append(cur.data(), prev, changed.data(), uint32_t(changed.size()));
    ASSERT_NE(prev, ClockStore::kUnknown);
    ref.push_back(cur);
    ids.push_back(prev);
  }
  std::vector<uint32_t> out(w);
  for (size_t k = 0; k < ids.size(); k += 7) {
    for (uint32_t i = 0; i < w; ++i) ASSERT_EQ(s.Get(ids[k], i), ref[k][i]) << k << " " << i;
    s.Materialize(ids[k], out.data());
    ASSERT_EQ(out, ref[k]);
  }
  // Far smaller than dense rows.
  EXPECT_LT(s.bytes(), uint64_t(ids.size()) * w * 4 / 2);
}

TEST(ClockStore, BudgetExhaustion) {
  ClockStore s;
  s.Init(64, 64 * 4 * 3, 8);
  std::vector<uint32_t> a(64, 1);
  EXPECT_NE(s.Append(a.data(), 0, nullptr, 0), ClockStore::kUnknown);
  EXPECT_NE(s.Append(a.data(), 0, nullptr, 0), ClockStore::kUnknown);
  uint32_t id = ClockStore::kZero;
  for (int k = 0; k < 4; ++k) id = s.Append(a.data(), 0, nullptr, 0);
  EXPECT_EQ(id, ClockStore::kUnknown);
  EXPECT_TRUE(s.exhausted());
}

}  // namespace
}  // namespace gordian::hb
