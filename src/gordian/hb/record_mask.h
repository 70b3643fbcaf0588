// This file owns RecordMask: one bit per record of a trace (or per
// goroutine), the form of the engine's masks of records without a clock
// (HbOptions::unclocked, ::unneeded: detect/clock_needs.h,
// pipeline/object_shedding.h). A byte a record was 6 MB of a 6M-record
// pipeline trace's analysis, held to its end; a bit is 0.75 MB
// (docs/analysis-needs.md).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gordian::hb {

class RecordMask {
 public:
  RecordMask() = default;
  // n entries, all clear.
  explicit RecordMask(size_t n) : n_(n), words_((n + 63) / 64, 0) {}

  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  bool operator[](size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void Set(size_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  void Set(size_t i, bool on) {
    if (on) Set(i);
    else words_[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  // How many entries are set.
  size_t Count() const {
    size_t c = 0;
    for (uint64_t w : words_) c += static_cast<size_t>(std::popcount(w));
    return c;
  }
  // Sets every entry set in other (of the same size).
  void Or(const RecordMask& other) {
    for (size_t w = 0; w < words_.size() && w < other.words_.size(); ++w) words_[w] |= other.words_[w];
  }
  // The word holding entry i (for prefetching).
  const uint64_t* WordOf(size_t i) const { return words_.data() + (i >> 6); }
  size_t MemoryBytes() const { return words_.capacity() * 8; }

 private:
  size_t n_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace gordian::hb
