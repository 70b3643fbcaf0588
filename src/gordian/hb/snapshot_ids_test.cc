// Tests of snapshot_ids.h: the ranked form gives every record with a clock
// its own ids, and the records without one kUnknown, as the plain arrays do.
#include "gordian/hb/snapshot_ids.h"

#include <gtest/gtest.h>

#include <random>

namespace gordian::hb {
namespace {

// Sets ids on every record through both forms and compares them.
void CheckAgainstPlainArrays(const std::vector<uint8_t>& without, bool expect_ranked) {
  RecordMask mask(without.size());
  for (size_t i = 0; i < without.size(); ++i) mask.Set(i, without[i] != 0);
  SnapshotIds ids;
  ids.Init(without.size(), &mask);
  const size_t plain = without.size() * 8;
  EXPECT_EQ(ids.MemoryBytes() < plain, expect_ranked) << ids.MemoryBytes() << " vs " << plain;
  for (uint32_t i = 0; i < without.size(); ++i) {
    EXPECT_EQ(ids.Pre(i), SnapshotIds::kUnknown);
    ids.SetPre(i, 3 * i + 1);
    ids.SetPost(i, 3 * i + 2);
  }
  for (uint32_t i = 0; i < without.size(); ++i) {
    const bool has = expect_ranked ? without[i] == 0 : true;
    ASSERT_EQ(ids.Pre(i), has ? 3 * i + 1 : SnapshotIds::kUnknown) << i;
    ASSERT_EQ(ids.Post(i), has ? 3 * i + 2 : SnapshotIds::kUnknown) << i;
  }
}

TEST(SnapshotIds, MostRecordsWithoutAClockAreRankedAndKeepNoIds) {
  std::mt19937 rng(7);
  std::vector<uint8_t> without(10000);
  for (auto& u : without) u = rng() % 10 != 0;  // 10% with a clock
  without[0] = 0;                               // word edges
  without[63] = 0;
  without[64] = 1;
  without[9999] = 0;
  CheckAgainstPlainArrays(without, true);
}

TEST(SnapshotIds, FewRecordsWithoutAClockKeepThePlainArrays) {
  std::vector<uint8_t> without(1000, 0);
  without[5] = 1;
  CheckAgainstPlainArrays(without, false);
  SnapshotIds none;
  none.Init(100, nullptr);
  none.SetPre(99, 4);
  EXPECT_EQ(none.Pre(99), 4u);
  EXPECT_EQ(none.Post(99), SnapshotIds::kUnknown);
}

}  // namespace
}  // namespace gordian::hb
