// This file implements the snapshot ids' blocks: writing into an open
// block's buffer, and packing a block into runs once it is written.
#include "gordian/hb/snapshot_ids.h"

#include <algorithm>

namespace gordian::hb {

void SnapshotIds::Init(size_t n, const RecordMask* without_clock) {
  n_ = n;
  bits_.clear();
  rank_.clear();
  size_t clocked = n;
  if (without_clock != nullptr && without_clock->size() == n) {
    clocked = n - without_clock->Count();
  }
  // Ranked when it saves at least a quarter of the slots.
  if (clocked < n / 4 * 3) {
    bits_.assign((n + 63) / 64, 0);
    rank_.assign(bits_.size() + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      if (!(*without_clock)[i]) bits_[i >> 6] |= uint64_t{1} << (i & 63);
    }
    for (size_t w = 0; w < bits_.size(); ++w) {
      rank_[w + 1] = rank_[w] + static_cast<uint32_t>(std::popcount(bits_[w]));
    }
  } else {
    clocked = n;
  }
  positions_ = 2 * uint64_t{clocked};
  const size_t blocks = (positions_ + 63) / 64;
  starts_.assign(blocks, 0);
  base_.assign(blocks, kUntouched);
  starts_.shrink_to_fit();
  base_.shrink_to_fit();
  values_.clear();
  next_value_ = 0;
  stages_.clear();
  free_stages_.clear();
}

void SnapshotIds::Set(uint64_t p, uint32_t id) {
  const uint64_t b = p >> 6;
  if (starts_[b] != 0) {
    // Packed already: an id written again (the same one, as a Once.Do's
    // post may be) changes nothing; another one unpacks the block (its
    // packed ids are left unused in values_).
    if (Get(p) == id) return;
    const uint32_t s = OpenStage();
    for (uint64_t k = 0; k < 64 && b * 64 + k < positions_; ++k) stages_[s].v[k] = Get(b * 64 + k);
    stages_[s].written = FullMask(b);
    starts_[b] = 0;
    base_[b] = s;
  }
  if (base_[b] == kUntouched) base_[b] = OpenStage();
  Stage& st = stages_[base_[b]];
  st.v[p & 63] = id;
  st.written |= uint64_t{1} << (p & 63);
  if (st.written == FullMask(b)) Seal(b);
}

uint32_t SnapshotIds::OpenStage() {
  uint32_t s;
  if (!free_stages_.empty()) {
    s = free_stages_.back();
    free_stages_.pop_back();
  } else {
    s = static_cast<uint32_t>(stages_.size());
    stages_.emplace_back();
  }
  stages_[s].written = 0;
  std::fill(std::begin(stages_[s].v), std::end(stages_[s].v), kUnknown);
  return s;
}

void SnapshotIds::Seal(uint64_t b) {
  const uint32_t s = base_[b];
  const uint32_t* v = stages_[s].v;
  const uint64_t valid = FullMask(b);
  uint64_t starts = 1;
  for (uint32_t k = 1; k < 64 && ((valid >> k) & 1); ++k) {
    if (v[k] != v[k - 1]) starts |= uint64_t{1} << k;
  }
  const uint32_t count = static_cast<uint32_t>(std::popcount(starts));
  if ((next_value_ >> kChunkShift) >= values_.size() ||
      (next_value_ & kChunkMask) + count > kChunkMask + 1) {
    // No chunk yet, or a block's ids would not stay in one: start the next.
    next_value_ = static_cast<uint32_t>(values_.size()) << kChunkShift;
    values_.emplace_back(new uint32_t[kChunkMask + 1]);
  }
  uint32_t* out = values_[next_value_ >> kChunkShift].get() + (next_value_ & kChunkMask);
  uint32_t n = 0;
  for (uint32_t k = 0; k < 64 && ((valid >> k) & 1); ++k) {
    if ((starts >> k) & 1) out[n++] = v[k];
  }
  base_[b] = next_value_;
  starts_[b] = starts;
  next_value_ += count;
  free_stages_.push_back(s);
}

void SnapshotIds::Finish() {
  for (uint64_t b = 0; b < starts_.size(); ++b) {
    if (starts_[b] == 0 && base_[b] != kUntouched) Seal(b);
  }
  std::vector<Stage>().swap(stages_);
  std::vector<uint32_t>().swap(free_stages_);
}

size_t SnapshotIds::MemoryBytes() const {
  return bits_.capacity() * 8 + rank_.capacity() * 4 + starts_.capacity() * 8 +
         base_.capacity() * 4 + values_.size() * (size_t{kChunkMask} + 1) * 4 +
         stages_.capacity() * sizeof(Stage) + free_stages_.capacity() * 4;
}

}  // namespace gordian::hb
