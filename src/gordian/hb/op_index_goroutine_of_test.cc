// Tests the operation index's record -> goroutine lookup on the layouts a
// window of a trace has: a few goroutines of a large table keep records,
// their indices far apart and their ranges not in goroutine order.
#include <gtest/gtest.h>

#include <vector>

#include "gordian/hb/op_index.h"
#include "gordian/trace/trace.h"

namespace gordian::hb {
namespace {

using trace::Kind;

// A trace whose goroutine table has `table` goroutines, of which only the
// listed ones have records: (goroutine index, record count), in the order
// their records are laid out.
trace::Trace WindowLike(uint32_t table, const std::vector<std::pair<uint32_t, uint32_t>>& ranges) {
  trace::Trace t;
  t.goroutines.resize(table);
  for (uint32_t g = 0; g < table; ++g) t.goroutines[g].gid = g + 1;
  uint32_t stamp = 0;
  for (auto [g, count] : ranges) {
    t.goroutines[g].begin = static_cast<uint32_t>(t.records.size());
    for (uint32_t i = 0; i < count; ++i) {
      trace::Record r{};
      r.kind = i % 2 == 0 ? Kind::MutexLock : Kind::MutexUnlock;  // obj 0: no object
      r.tpre = ++stamp;
      r.tpost = ++stamp;
      t.records.push_back(r);
    }
    t.goroutines[g].end = static_cast<uint32_t>(t.records.size());
  }
  t.sites.resize(1);
  t.strings.resize(1);
  return t;
}

void ExpectEveryRecordOfItsGoroutine(const trace::Trace& t, const OpIndex& idx) {
  std::vector<uint32_t> want(t.records.size(), trace::Value(trace::kNoGoroutine));
  for (uint32_t g = 0; g < t.goroutines.size(); ++g) {
    for (uint32_t i = t.goroutines[g].begin; i < t.goroutines[g].end; ++i) want[i] = g;
  }
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    ASSERT_EQ(trace::Value(idx.GoroutineIndexOf(i)), want[i]) << "record " << i;
  }
}

TEST(OpIndexGoroutineOf, GoroutinesFarApartInTheTableShareABlock) {
  // Main's three records, then two goroutines hundreds of indices on, the
  // later-numbered one first: every 256-record block but the first is one
  // goroutine's, and the first mixes goroutines 0 and 900.
  const trace::Trace t = WindowLike(1000, {{0, 3}, {900, 200'000}, {400, 5}, {650, 100'000}});
  OpIndex idx;
  idx.Build(t);
  ExpectEveryRecordOfItsGoroutine(t, idx);
  // The per-record form costs 4 bytes a record (1.2 MB here); the blocks'
  // form a few bytes a block.
  EXPECT_LT(idx.MemoryBytes(), t.records.size() / 4);
}

TEST(OpIndexGoroutineOf, ManyShortGoroutinesInOneBlock) {
  // 300 goroutines of one record each, then a long one: the first block
  // holds 256 goroutines, one more than a byte tells apart from "none".
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  for (uint32_t g = 0; g < 300; ++g) ranges.push_back({g * 3, 1});
  ranges.push_back({950, 1000});
  const trace::Trace t = WindowLike(1000, ranges);
  OpIndex idx;
  idx.Build(t);
  ExpectEveryRecordOfItsGoroutine(t, idx);
}

TEST(OpIndexGoroutineOf, RecordsOutsideEveryGoroutine) {
  trace::Trace t = WindowLike(10, {{2, 600}, {7, 600}});
  t.goroutines[7].begin += 300;  // records 600..899 belong to no goroutine
  OpIndex idx;
  idx.Build(t);
  ExpectEveryRecordOfItsGoroutine(t, idx);
}

}  // namespace
}  // namespace gordian::hb
