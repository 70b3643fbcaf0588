// Tests PackedIds and PackedIdRange (packed_ids.h): every entry reads back
// as stored, whatever width each block gets, and the range view behaves
// like a span for the algorithms the detectors use on it.
#include "gordian/hb/packed_ids.h"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::hb {
namespace {

void ExpectSame(const std::vector<uint32_t>& ids) {
  PackedIds p(ids);
  ASSERT_EQ(p.size(), ids.size());
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(p[i], ids[i]) << "entry " << i;
}

TEST(PackedIds, EveryWidthReadsBackWhatWasStored) {
  std::mt19937 rng(7);
  // Spreads of a block at the edges of each width: 254 fits a byte, 255
  // does not; 65,534 fits two bytes, 65,535 does not; 0: any id.
  const uint32_t spreads[] = {1, 254, 255, 65534, 65535, 0};
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> ids(rng() % 1000);
    uint32_t base = 0, spread = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i % 64 == 0) {
        spread = spreads[(i / 64 + round) % 6];
        base = rng() % 0xfff00000u;
      }
      uint32_t v = spread == 0 ? rng() % 0xffffffffu : base + rng() % (spread + 1);
      // The block's extremes, so that it spreads exactly `spread`.
      if (spread != 0 && i % 64 == 1) v = base;
      if (spread != 0 && i % 64 == 2) v = base + spread;
      ids[i] = rng() % 9 == 0 ? PackedIds::kNone : v;
    }
    ExpectSame(ids);
  }
}

TEST(PackedIds, BlocksOfOneWidthTakeTheirSize) {
  std::vector<uint32_t> stride3(64 * 100);
  for (size_t i = 0; i < stride3.size(); ++i) stride3[i] = 1000000 + 3 * uint32_t(i);
  PackedIds p(stride3);
  // 6,400 ids 3 apart: each block spreads 189, a byte an entry.
  EXPECT_LT(p.MemoryBytes(), stride3.size() * 1 + 100 * 8 + 64);
  std::vector<uint32_t> apart(64 * 100);
  for (size_t i = 0; i < apart.size(); ++i) apart[i] = 1000 * uint32_t(i);
  PackedIds q(apart);
  // 1,000 apart: 63,000 in a block, two bytes an entry.
  EXPECT_GT(q.MemoryBytes(), apart.size() * 2);
  EXPECT_LT(q.MemoryBytes(), apart.size() * 2 + 100 * 8 + 64);
  ExpectSame(stride3);
  ExpectSame(apart);
}

TEST(PackedIds, NoneAndTheLargestIdsSurvive) {
  std::vector<uint32_t> ids = {PackedIds::kNone, 0xfffffffeu, 0, PackedIds::kNone, 5};
  ExpectSame(ids);
  ExpectSame({PackedIds::kNone, PackedIds::kNone});
  ExpectSame({});
  ExpectSame({0xfffffffeu, 0xfffffffdu, PackedIds::kNone});
}

TEST(PackedIdRange, ReadsLikeASpan) {
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < 500; ++i) ids.push_back(10 + 7 * i + (i > 300 ? 100000 : 0));
  PackedIds p(ids);
  PackedIdRange r(&p, 100, 400);
  ASSERT_EQ(r.size(), 300u);
  EXPECT_FALSE(r.empty());
  EXPECT_EQ(r.front(), ids[100]);
  EXPECT_EQ(r.back(), ids[399]);
  EXPECT_EQ(r[150], ids[250]);
  std::vector<uint32_t> copy(r.begin(), r.end());
  EXPECT_EQ(copy, std::vector<uint32_t>(ids.begin() + 100, ids.begin() + 400));
  // Sorted ids: lower_bound as the mixed-deadlock detector uses it.
  auto it = std::lower_bound(r.begin(), r.end(), ids[320]);
  EXPECT_EQ(it - r.begin(), 220);
  EXPECT_EQ(*it, ids[320]);
  EXPECT_EQ(std::lower_bound(r.begin(), r.end(), ids[320] + 1) - r.begin(), 221);
  EXPECT_TRUE(PackedIdRange(&p, 7, 7).empty());
}

}  // namespace
}  // namespace gordian::hb
