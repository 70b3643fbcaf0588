// This file implements the clock store: block arena, dense rows, and delta
// snapshots with bounded chains (see clock_store.h for the design).
#include "gordian/hb/clock_store.h"

#include <algorithm>
#include <cstring>

namespace gordian::hb {

void ClockStore::InitTree(uint32_t width, uint64_t budget_bytes) {
  Init(width, budget_bytes, 0);
  tree_ = true;
  tree_snapshots_ = 0;
  arena_.Init(width);
}

void ClockStore::Init(uint32_t width, uint64_t budget_bytes, uint64_t expected) {
  tree_ = false;
  width_ = width;
  budget_ = budget_bytes;
  bytes_ = 0;
  exhausted_ = false;
  entries_.clear();
  depth_.clear();
  blocks_.clear();
  next_ = 0;
  // Blocks of at least 4M words (16 MB) and at least one dense row.
  block_shift_ = 22;
  while ((1ull << block_shift_) < uint64_t(width) + 1) ++block_shift_;
  block_mask_ = (1ull << block_shift_) - 1;
  // Reserving the per-snapshot table only costs address space until used.
  entries_.reserve(expected + 1);
  depth_.reserve(expected + 1);
  // Snapshot 0: the all-zero clock, stored as an empty delta with no base.
  entries_.push_back(Entry{0, kZero, 0});
  depth_.push_back(0);
}

uint64_t ClockStore::Reserve(uint64_t words) {
  uint64_t bsize = 1ull << block_shift_;
  uint64_t within = next_ & block_mask_;
  if ((next_ >> block_shift_) >= blocks_.size() || within + words > bsize) {
    // Start a new block; rows never straddle blocks. `new T[]` leaves the
    // memory untouched, so only written pages count.
    blocks_.emplace_back(new uint32_t[bsize]);
    next_ = uint64_t(blocks_.size() - 1) << block_shift_;
  }
  uint64_t off = next_;
  next_ += words;
  return off;
}

uint32_t ClockStore::Append(const uint32_t* clock, uint32_t prev, uint32_t* changed,
                            uint32_t n) {
  if (exhausted_) return kUnknown;
  bool dense = changed == nullptr || prev == kUnknown ||
               uint32_t(depth_[prev]) + 1 >= kMaxDepth || uint64_t(n) * 2 * 2 > width_;
  uint64_t words = dense ? width_ : uint64_t(n) * 2;
  uint64_t cost = words * 4 + sizeof(Entry) + 1;
  if (bytes_ + cost > budget_ || entries_.size() >= kUnknown - 1) {
    exhausted_ = true;
    return kUnknown;
  }
  bytes_ += cost;
  uint64_t off = Reserve(words == 0 ? 1 : words);
  uint32_t* dst = &blocks_[off >> block_shift_][off & block_mask_];
  uint32_t id = static_cast<uint32_t>(entries_.size());
  if (dense) {
    std::memcpy(dst, clock, size_t(width_) * 4);
    entries_.push_back(Entry{off, kZero, kDense});
    depth_.push_back(0);
  } else {
    std::sort(changed, changed + n);
    for (uint32_t k = 0; k < n; ++k) {
      dst[2 * k] = changed[k];
      dst[2 * k + 1] = clock[changed[k]];
    }
    entries_.push_back(Entry{off, prev, n});
    depth_.push_back(static_cast<uint8_t>(depth_[prev] + 1));
  }
  return id;
}

uint32_t ClockStore::GetSlow(uint32_t id, uint32_t index) const {
  for (;;) {
    const Entry& e = entries_[id];
    if (e.count == kDense) return Word(e.off + index);
    // Binary search the sorted (index, value) pairs.
    uint32_t lo = 0, hi = e.count;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      uint32_t k = Word(e.off + 2 * uint64_t(mid));
      if (k == index) return Word(e.off + 2 * uint64_t(mid) + 1);
      if (k < index) lo = mid + 1;
      else hi = mid;
    }
    if (id == kZero) return 0;
    id = e.prev;
  }
}

void ClockStore::Differences(uint32_t a, uint32_t b, std::vector<uint32_t>* out) const {
  if (a == b) return;
  if (tree_) {
    arena_.Differences(a, b, out);
    return;
  }
  for (uint32_t i = 0; i < width_; ++i) {
    if (Get(a, i) != Get(b, i)) out->push_back(i);
  }
}

void ClockStore::Materialize(uint32_t id, uint32_t* out) const {
  if (tree_) {
    arena_.Materialize(id, out);
    return;
  }
  // Walk the chain to its dense base (or the zero clock), then apply the
  // deltas from the oldest to the newest.
  uint32_t chain[kMaxDepth + 1];
  uint32_t len = 0;
  while (id != kZero && entries_[id].count != kDense && len <= kMaxDepth) {
    chain[len++] = id;
    id = entries_[id].prev;
  }
  if (id == kZero) {
    std::fill(out, out + width_, 0u);
  } else {
    const Entry& e = entries_[id];
    for (uint32_t i = 0; i < width_; ++i) out[i] = Word(e.off + i);
  }
  while (len > 0) {
    const Entry& e = entries_[chain[--len]];
    for (uint32_t k = 0; k < e.count; ++k) {
      out[Word(e.off + 2 * uint64_t(k))] = Word(e.off + 2 * uint64_t(k) + 1);
    }
  }
}

}  // namespace gordian::hb
