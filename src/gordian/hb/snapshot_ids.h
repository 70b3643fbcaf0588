// This file defines the engine's per-record snapshot ids: the pre and the
// post clock snapshot (ClockStore ids) of every record that gets a clock.
//
// Two things make them smaller than two 4-byte ids per record:
// - With clocks on demand (detect/clock_needs.h) most records of a large
//   trace may get no clock at all (the pipeline suite of
//   bench/run-race-bench: 6.0M records, a few hundred with a clock). The
//   records without a clock are known before the build (HbOptions::unclocked
//   and ::unneeded), so when they are most of the trace only the others get
//   slots, found by rank: a bit per record and a count per 64 records
//   (about 0.2 byte a record), two loads and a popcount a query.
// - A goroutine's clock changes only at the acquisitions that raise it, so
//   along its records the ids repeat: on a stream multiplexer's largest
//   test, 73% of the records' post is their pre, and 73% of their pre the
//   post of the record before. The ids are kept in the order
//   pre, post, pre, post... of the slots, in blocks of 64, as runs: per
//   block a bit where a new id starts and the block's ids in a shared
//   array (24 MB became 8 MB there). A query is two loads, a popcount and
//   a load.
// The engine writes a goroutine's ids in its program order, but goroutines
// interleave, a block may hold the end of one goroutine's slots and the
// start of the next, and a Once.Do's post is written after its body: so a
// block is written into a plain buffer of 64 ids first, and packed once all
// of its ids are written (or at Finish, after the build). Open blocks are
// at most a few per goroutine.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
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
  void Init(size_t n, const RecordMask* without_clock);

  size_t size() const { return n_; }
  uint32_t Pre(RecordId rec) const {
    uint32_t s = Slot(rec);
    return s == kNoSlot ? kUnknown : Get(2 * uint64_t{s});
  }
  uint32_t Post(RecordId rec) const {
    uint32_t s = Slot(rec);
    return s == kNoSlot ? kUnknown : Get(2 * uint64_t{s} + 1);
  }
  void SetPre(RecordId rec, uint32_t id) {
    if (uint32_t s = Slot(rec); s != kNoSlot) Set(2 * uint64_t{s}, id);
  }
  void SetPost(RecordId rec, uint32_t id) {
    if (uint32_t s = Slot(rec); s != kNoSlot) Set(2 * uint64_t{s} + 1, id);
  }
  // Packs the blocks still open (ids never written stay kUnknown) and frees
  // their buffers: after the build.
  void Finish();
  // Calls f(id) for every stored id other than kUnknown, each run of equal
  // ids once (the roots of the tree clocks' collection).
  template <class F>
  void ForEachId(F&& f) const {
    for (size_t b = 0; b < starts_.size(); ++b) {
      if (starts_[b] != 0) {
        const uint32_t* v = Values(base_[b]);
        for (int k = 0, c = std::popcount(starts_[b]); k < c; ++k) {
          if (v[k] != kUnknown) f(v[k]);
        }
      } else if (base_[b] != kUntouched) {
        for (uint32_t id : stages_[base_[b]].v) {
          if (id != kUnknown) f(id);
        }
      }
    }
  }
  size_t MemoryBytes() const;

 private:
  static constexpr uint32_t kNoSlot = 0xffffffffu;
  static constexpr uint32_t kUntouched = 0xffffffffu;  // base_ of a block never written
  static constexpr uint32_t kChunkShift = 12;          // 4096 ids per chunk of values_
  static constexpr uint32_t kChunkMask = (1u << kChunkShift) - 1;

  uint32_t Slot(RecordId rec) const {
    if (bits_.empty()) return rec;
    const uint64_t word = bits_[rec >> 6];
    const uint64_t bit = uint64_t{1} << (rec & 63);
    if ((word & bit) == 0) return kNoSlot;
    return rank_[rec >> 6] + static_cast<uint32_t>(std::popcount(word & (bit - 1)));
  }
  const uint32_t* Values(uint32_t base) const {
    return values_[base >> kChunkShift].get() + (base & kChunkMask);
  }
  // Position p: 2 * slot (+1 for the post).
  uint32_t Get(uint64_t p) const {
    const uint64_t b = p >> 6;
    const uint64_t starts = starts_[b];
    if (starts != 0) [[likely]] {
      const uint64_t upto = starts & ((uint64_t{2} << (p & 63)) - 1);
      return Values(base_[b])[std::popcount(upto) - 1];
    }
    return base_[b] == kUntouched ? kUnknown : stages_[base_[b]].v[p & 63];
  }
  void Set(uint64_t p, uint32_t id);
  uint64_t FullMask(uint64_t b) const {
    const uint64_t left = positions_ - b * 64;
    return left >= 64 ? ~uint64_t{0} : (uint64_t{1} << left) - 1;
  }
  uint32_t OpenStage();  // an empty buffer: every id kUnknown
  void Seal(uint64_t b);

  size_t n_ = 0;
  uint64_t positions_ = 0;       // 2 per slot
  std::vector<uint64_t> bits_;   // ranked: 1 per record that has ids
  std::vector<uint32_t> rank_;   // ranked: records with ids before each word
  // Per block of 64 positions: packed, a bit where a run of equal ids
  // starts (bit 0 always) and the index of its first id in values_; open,
  // starts 0 and base the index of its buffer in stages_ (kUntouched: none
  // yet, every id kUnknown).
  std::vector<uint64_t> starts_;
  std::vector<uint32_t> base_;
  // The packed blocks' ids, in chunks that never move (a block's ids are in
  // one chunk).
  std::vector<std::unique_ptr<uint32_t[]>> values_;
  uint32_t next_value_ = 0;  // index of the next free id in values_
  struct Stage {
    uint64_t written = 0;
    uint32_t v[64];
  };
  std::vector<Stage> stages_;
  std::vector<uint32_t> free_stages_;
};

}  // namespace gordian::hb
