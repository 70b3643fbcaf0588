// Tests RecordMask (record_mask.h) against a byte per entry, the form it
// replaced: the same entries set, counted and merged.
#include "gordian/hb/record_mask.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gordian::hb {
namespace {

TEST(RecordMask, AgreesWithAByteAnEntry) {
  std::mt19937 rng(3);
  for (int round = 0; round < 50; ++round) {
    const size_t n = rng() % 700;
    RecordMask a(n), b(n);
    std::vector<uint8_t> ba(n, 0), bb(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 3 == 0) {
        a.Set(i);
        ba[i] = 1;
      }
      if (rng() % 5 == 0) {
        b.Set(i, true);
        bb[i] = 1;
      }
      // Clearing an entry again.
      if (ba[i] && rng() % 4 == 0) {
        a.Set(i, false);
        ba[i] = 0;
      }
    }
    ASSERT_EQ(a.size(), n);
    EXPECT_EQ(a.empty(), n == 0);
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(a[i], ba[i] != 0) << i;
      count += ba[i];
    }
    EXPECT_EQ(a.Count(), count);
    a.Or(b);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], (ba[i] | bb[i]) != 0) << i;
    EXPECT_LE(a.MemoryBytes(), (n + 63) / 64 * 8);
  }
}

}  // namespace
}  // namespace gordian::hb
