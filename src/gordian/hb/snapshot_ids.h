// This file defines the engine's per-record snapshot ids: the pre and the
// post clock snapshot (ClockStore ids) of every record that gets a clock.
//
// Why not two plain arrays: with clocks on demand (detect/clock_needs.h)
// most records of a large trace get no clock at all (the pipeline suite of
// bench/run-race-bench: 6.0M records, a few hundred with a clock), and two
// 4-byte ids per record were then the largest thing the engine held
// (48 MB there). The records without a clock are known before the build
// (HbOptions::unclocked and ::unneeded), so when they are most of the trace
// only the others get ids, found by rank: a bit per record and a count per
// 64 records (about 0.2 byte a record), two loads and a popcount a query.
// When few records go without a clock, the two plain arrays stay.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gordian/hb/record_mask.h"
#include "gordian/trace/ids.h"

namespace gordian::hb {

using trace::RecordId;

class SnapshotIds {
 public:
  static constexpr uint32_t kUnknown = 0xffffffffu;  // ClockStore::kUnknown

  // n records, all kUnknown. without_clock (a bit per record, or null): the
  // records that never get a snapshot; setting theirs is ignored.
  void Init(size_t n, const RecordMask* without_clock) {
    n_ = n;
    bits_.clear();
    rank_.clear();
    size_t clocked = n;
    if (without_clock != nullptr && without_clock->size() == n) {
      clocked = n - without_clock->Count();
    }
    // Ranked when it saves at least a quarter of the plain arrays.
    if (clocked < n / 4 * 3) {
      bits_.assign((n + 63) / 64, 0);
      rank_.assign(bits_.size() + 1, 0);
      for (size_t i = 0; i < n; ++i) {
        if (!(*without_clock)[i]) bits_[i >> 6] |= uint64_t{1} << (i & 63);
      }
      for (size_t w = 0; w < bits_.size(); ++w) {
        rank_[w + 1] = rank_[w] + static_cast<uint32_t>(std::popcount(bits_[w]));
      }
      pre_.assign(clocked, kUnknown);
      post_.assign(clocked, kUnknown);
    } else {
      pre_.assign(n, kUnknown);
      post_.assign(n, kUnknown);
    }
    pre_.shrink_to_fit();
    post_.shrink_to_fit();
  }

  size_t size() const { return n_; }
  uint32_t Pre(RecordId rec) const {
    uint32_t s = Slot(rec);
    return s == kNoSlot ? kUnknown : pre_[s];
  }
  uint32_t Post(RecordId rec) const {
    uint32_t s = Slot(rec);
    return s == kNoSlot ? kUnknown : post_[s];
  }
  void SetPre(RecordId rec, uint32_t id) {
    if (uint32_t s = Slot(rec); s != kNoSlot) pre_[s] = id;
  }
  void SetPost(RecordId rec, uint32_t id) {
    if (uint32_t s = Slot(rec); s != kNoSlot) post_[s] = id;
  }
  // Every stored id, pre and post (kUnknown included): the roots of the
  // tree clocks' collection.
  const std::vector<uint32_t>& pre_ids() const { return pre_; }
  const std::vector<uint32_t>& post_ids() const { return post_; }
  size_t MemoryBytes() const {
    return (pre_.capacity() + post_.capacity() + rank_.capacity()) * 4 + bits_.capacity() * 8;
  }

 private:
  static constexpr uint32_t kNoSlot = 0xffffffffu;
  uint32_t Slot(RecordId rec) const {
    if (bits_.empty()) return rec;
    const uint64_t word = bits_[rec >> 6];
    const uint64_t bit = uint64_t{1} << (rec & 63);
    if ((word & bit) == 0) return kNoSlot;
    return rank_[rec >> 6] + static_cast<uint32_t>(std::popcount(word & (bit - 1)));
  }
  size_t n_ = 0;
  std::vector<uint64_t> bits_;   // ranked: 1 per record that has ids
  std::vector<uint32_t> rank_;   // ranked: records with ids before each word
  std::vector<uint32_t> pre_, post_;
};

}  // namespace gordian::hb
