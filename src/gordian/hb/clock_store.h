// This file defines the clock store: an append-only arena of vector clock
// snapshots, one per change of a goroutine's clock, that the happens-before
// queries read after the replay.
//
// Design constraints (measured in bench/analysis_perftest.cc):
// - 10 million records with 64 goroutines must fit in a few GB: a snapshot is
//   written only when an acquire raised some entry of the goroutine's clock,
//   and records point at snapshots (4 bytes each) instead of owning clocks.
// - Up to 64 goroutines a snapshot is a dense row (width * 4 bytes): a query
//   is one load. Wider clocks are stored as deltas against the goroutine's
//   previous snapshot (sorted (index, value) pairs), with a dense checkpoint
//   when the delta would be large or the chain deep, so a query walks at most
//   kMaxDepth short arrays.
// - No per-event allocation: the arena grows in fixed blocks that are never
//   moved, so memory is never copied and pages are touched only when written.
// - A byte budget: past it Append returns kUnknown and the engine treats the
//   affected records conservatively (ordered, never concurrent).
// - Wider traces (the engine's choice, see replay.cc) use tree mode instead:
//   clocks are persistent radix trees in a ClockArena (tree_clock.h) and a
//   snapshot id is simply the root node of the goroutine's tree, so a
//   snapshot costs only the paths that changed since the previous one. The
//   row and delta forms above stay for narrow traces (and as the reference
//   that tests compare tree mode against).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gordian/hb/tree_clock.h"

namespace gordian::hb {

class ClockStore {
 public:
  static constexpr uint32_t kZero = 0;              // the all-zero clock
  static constexpr uint32_t kUnknown = 0xffffffffu; // not stored (budget)
  static constexpr uint32_t kMaxDepth = 16;
  static constexpr uint32_t kDenseWidth = 64;       // <= this: always dense

  void Init(uint32_t width, uint64_t budget_bytes, uint64_t expected_snapshots);
  // Tree mode: snapshots are roots in arena() (ClockArena::kZeroNode == kZero).
  void InitTree(uint32_t width, uint64_t budget_bytes);
  bool tree() const { return tree_; }
  ClockArena& arena() { return arena_; }
  const ClockArena& arena() const { return arena_; }
  // Tree mode: records root (frozen by the caller) as a snapshot. Returns
  // root, or kUnknown once the arena has grown past the budget.
  // (The nodes in use, not the arena's chunks: the engine's collections
  // make room inside them.)
  uint32_t AppendTree(uint32_t root) {
    if (exhausted_ || arena_.bytes_in_use() > budget_) {
      exhausted_ = true;
      return kUnknown;
    }
    ++tree_snapshots_;
    return root;
  }

  uint32_t width() const { return width_; }
  // Whether Append wants the changed-entry list (wide clocks only).
  bool tracks_changes() const { return width_ > kDenseWidth; }

  // Appends a snapshot equal to clock[0..width). prev is the previous
  // snapshot of the same goroutine (or kZero), and changed[0..n) the indices
  // of the entries that differ from it (any order, no duplicates); pass
  // changed == nullptr when not tracked. Returns the snapshot id or kUnknown.
  uint32_t Append(const uint32_t* clock, uint32_t prev, uint32_t* changed, uint32_t n);

  // Entry `index` of a snapshot (not kUnknown).
  uint32_t Get(uint32_t id, uint32_t index) const {
    if (tree_) return arena_.Get(id, index);
    const Entry& e = entries_[id];
    if (e.count == kDense) [[likely]] return Word(e.off + index);
    return GetSlow(id, index);
  }
  void Materialize(uint32_t id, uint32_t* out) const;
  // Appends the indices whose entries differ between snapshots a and b
  // (neither kUnknown), in increasing order: the changed paths in tree
  // mode, a scan of the width otherwise.
  void Differences(uint32_t a, uint32_t b, std::vector<uint32_t>* out) const;

  uint64_t bytes() const { return tree_ ? arena_.bytes() : bytes_; }
  uint64_t snapshots() const { return tree_ ? tree_snapshots_ : entries_.size(); }
  bool exhausted() const { return exhausted_; }
  uint64_t budget() const { return budget_; }

 private:
  static constexpr uint32_t kDense = 0xffffffffu;
  struct Entry {
    uint64_t off;    // word offset of the row or of the (index, value) pairs
    uint32_t prev;   // delta: base snapshot; dense: unused
    uint32_t count;  // kDense, or number of pairs
  };
  uint32_t Word(uint64_t off) const {
    return blocks_[off >> block_shift_][off & block_mask_];
  }
  uint32_t GetSlow(uint32_t id, uint32_t index) const;
  uint64_t Reserve(uint64_t words);  // returns the offset of `words` contiguous words

  bool tree_ = false;
  ClockArena arena_;
  uint64_t tree_snapshots_ = 0;
  uint32_t width_ = 0;
  uint64_t budget_ = 0;
  uint64_t bytes_ = 0;
  bool exhausted_ = false;
  std::vector<Entry> entries_;
  std::vector<uint8_t> depth_;   // delta chain length per snapshot (0 = dense)
  std::vector<std::unique_ptr<uint32_t[]>> blocks_;
  uint32_t block_shift_ = 22;
  uint64_t block_mask_ = (1ull << 22) - 1;
  uint64_t next_ = 0;            // next free word offset
};

}  // namespace gordian::hb
