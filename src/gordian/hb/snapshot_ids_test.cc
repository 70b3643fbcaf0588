// Tests of snapshot_ids.h: every record with a clock reads back the ids
// written for it, whatever the order goroutines write them in (interleaved,
// a block shared by two goroutines, a post written late, an id written
// again), the records without one read kUnknown, and repeated ids cost
// little.
#include "gordian/hb/snapshot_ids.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

namespace gordian::hb {
namespace {

struct Reference {
  std::map<uint32_t, uint32_t> pre, post;
  uint32_t Pre(uint32_t r) const {
    auto it = pre.find(r);
    return it == pre.end() ? SnapshotIds::kUnknown : it->second;
  }
  uint32_t Post(uint32_t r) const {
    auto it = post.find(r);
    return it == post.end() ? SnapshotIds::kUnknown : it->second;
  }
};

void ExpectSame(const SnapshotIds& ids, const Reference& want, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(ids.Pre(i), want.Pre(i)) << "pre of " << i;
    ASSERT_EQ(ids.Post(i), want.Post(i)) << "post of " << i;
  }
}

// Goroutines own consecutive ranges of records and write their ids in
// program order, interleaved at random, as the engine does: a pre, then a
// post that is often the pre, and a next pre that is often the last post.
// Some posts are written only when the goroutine has gone past (Once.Do),
// and some ids are written twice.
void WriteLikeTheEngine(const RecordMask* without, uint32_t n, uint32_t goroutines, uint32_t seed) {
  std::mt19937 rng(seed);
  SnapshotIds ids;
  ids.Init(n, without);
  Reference want;
  auto has = [&](uint32_t r) { return without == nullptr || !(*without)[r]; };
  auto set_pre = [&](uint32_t r, uint32_t v) {
    ids.SetPre(r, v);
    if (has(r)) want.pre[r] = v;
  };
  auto set_post = [&](uint32_t r, uint32_t v) {
    ids.SetPost(r, v);
    if (has(r)) want.post[r] = v;
  };
  std::vector<uint32_t> begin(goroutines + 1), cursor(goroutines), snap(goroutines);
  for (uint32_t g = 0; g <= goroutines; ++g) begin[g] = uint32_t(uint64_t{n} * g / goroutines);
  for (uint32_t g = 0; g < goroutines; ++g) {
    cursor[g] = begin[g];
    snap[g] = 1000 * g;
  }
  std::vector<std::pair<uint32_t, uint32_t>> late;  // (record, id)
  uint32_t left = n;
  while (left > 0) {
    const uint32_t g = rng() % goroutines;
    if (cursor[g] == begin[g + 1]) continue;
    const uint32_t r = cursor[g]++;
    --left;
    if (rng() % 4 == 0) ++snap[g];  // an acquisition between records
    set_pre(r, snap[g]);
    if (rng() % 4 == 0) ++snap[g];  // one during the record
    if (rng() % 50 == 0) {
      late.push_back({r, snap[g] + 7});
    } else {
      set_post(r, snap[g]);
    }
    if (rng() % 100 == 0) set_pre(r, snap[g]);  // written again
    if (!late.empty() && rng() % 8 == 0) {
      set_post(late.back().first, late.back().second);
      late.pop_back();
    }
  }
  // Reads before Finish see the open blocks' buffers.
  ExpectSame(ids, want, n);
  for (auto [r, v] : late) set_post(r, v);
  ids.Finish();
  ExpectSame(ids, want, n);
  // Written again after packing: the block is unpacked and still right.
  for (uint32_t k = 0; k < 20; ++k) {
    const uint32_t r = rng() % n;
    set_post(r, 999'999 + k);
  }
  ExpectSame(ids, want, n);
  // ForEachId lists every id stored, each run once at least.
  std::set<uint32_t> listed, stored;
  ids.ForEachId([&](uint32_t id) { listed.insert(id); });
  for (auto& [r, v] : want.pre) stored.insert(v);
  for (auto& [r, v] : want.post) stored.insert(v);
  for (uint32_t v : stored) EXPECT_TRUE(listed.count(v)) << v;
}

TEST(SnapshotIds, EveryRecordReadsBackItsIdsWhateverTheWriteOrder) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    WriteLikeTheEngine(nullptr, 20'000, 1 + seed * 7, seed);
  }
  // Goroutines of a record or two: blocks shared by many goroutines.
  WriteLikeTheEngine(nullptr, 3'000, 1'500, 9);
}

TEST(SnapshotIds, RecordsWithoutAClockReadUnknown) {
  std::mt19937 rng(7);
  const uint32_t n = 30'000;
  RecordMask without(n);
  for (uint32_t i = 0; i < n; ++i) without.Set(i, rng() % 10 != 0);  // 10% with a clock
  without.Set(0, false);  // word edges
  without.Set(63, false);
  without.Set(64, true);
  without.Set(n - 1, false);
  WriteLikeTheEngine(&without, n, 40, 3);
}

TEST(SnapshotIds, RepeatedIdsCostLittle) {
  // A goroutine whose clock changes every eighth record: 100,000 records
  // in two 4-byte ids each would be 800 KB.
  const uint32_t n = 100'000;
  SnapshotIds ids;
  ids.Init(n, nullptr);
  uint32_t snap = 1;
  for (uint32_t r = 0; r < n; ++r) {
    ids.SetPre(r, snap);
    if (r % 8 == 0) ++snap;
    ids.SetPost(r, snap);
  }
  ids.Finish();
  for (uint32_t r = 0; r < n; ++r) ASSERT_EQ(ids.Post(r), r / 8 + 2) << r;
  EXPECT_LT(ids.MemoryBytes(), n * 8 / 3);
}

TEST(SnapshotIds, NoMaskMeansEveryRecordHasIds) {
  SnapshotIds none;
  none.Init(100, nullptr);
  none.SetPre(99, 4);
  EXPECT_EQ(none.Pre(99), 4u);
  EXPECT_EQ(none.Post(99), SnapshotIds::kUnknown);
  EXPECT_EQ(none.Pre(0), SnapshotIds::kUnknown);
}

}  // namespace
}  // namespace gordian::hb
