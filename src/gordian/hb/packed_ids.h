// This file owns PackedIds: a read-only array of record ids (uint32_t,
// kNone allowed) stored in two bytes an entry where it can be, and
// PackedIdRange, a view of a stretch of it that reads like a span.
//
// Why: the op index holds the records of every object (4 bytes a record
// on an object) and the send and receive of every channel value (8 bytes
// a value): 40 MB of a 6M-record pipeline trace, whose analysis must stay
// within 2x of `go test -race`'s memory (docs/analysis-needs.md). These
// lists are close to sorted and local: an object's records are in trace
// order, and one goroutine's records of it lie close together, so 64
// consecutive entries usually fit in 8 or 16 bits above their smallest (a
// pipeline stage's receives, sends or locks lie 1 to 3 records apart).
//
// Layout: blocks of 64 entries. A narrow block keeps its smallest id and an
// offset an entry, in a byte when the block's ids spread less than 255, in
// two bytes when less than 65,535 (the largest offset marks kNone); a
// block whose ids spread wider keeps 4 bytes an entry. Overhead 8 bytes a
// block: at most 4.125 bytes an entry, 1.125 when every block is bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace gordian::hb {

class PackedIds {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  PackedIds() = default;
  explicit PackedIds(const std::vector<uint32_t>& ids) { Assign(ids); }

  // From a plain array.
  void Assign(const std::vector<uint32_t>& ids) {
    Begin(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != kNone) Note(i, ids[i]);
    }
    Allocate();
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != kNone) Put(i, ids[i]);
    }
  }

  // Built in two passes over the entries, with no plain array in between
  // (the op index's lists were a plain array of 16 MB beside the packed
  // one): Begin(n), Note(i, id) for every entry that is not kNone,
  // Allocate(), then Put(i, id) for the same entries. Entries never put
  // read kNone.
  void Begin(size_t n) {
    size_ = n;
    const size_t blocks = (n + kBlock - 1) / kBlock;
    // Until Allocate: the block's smallest id and its largest.
    block_.assign(blocks, Block{kNone, 0});
    byte_.clear();
    half_.clear();
    full_.clear();
  }
  [[gnu::always_inline]] void Note(size_t i, uint32_t id) {
    Block& k = block_[i >> kShift];
    k.base = std::min(k.base, id);
    k.where = std::max(k.where, id);
  }
  void Allocate() {
    size_t count[3] = {0, 0, 0};
    for (Block& k : block_) {
      if (k.base == kNone) k.base = k.where = 0;  // no entry: any width
      const uint32_t spread = k.where - k.base;
      const uint32_t w = spread < kNoByte ? kByte : spread < kNoHalf ? kHalf : kFull;
      k.where = static_cast<uint32_t>(count[w]++) | w << kWidthShift;
    }
    byte_.assign(count[kByte] * kBlock, kNoByte);
    half_.assign(count[kHalf] * kBlock, kNoHalf);
    full_.assign(count[kFull] * kBlock, kNone);
  }
  [[gnu::always_inline]] void Put(size_t i, uint32_t id) {
    const Block k = block_[i >> kShift];
    const uint32_t w = k.where;
    const size_t at = (size_t{w & kIndexMask} << kShift) | (i & kMask);
    switch (w >> kWidthShift) {
      case kByte: byte_[at] = static_cast<uint8_t>(id - k.base); break;
      case kHalf: half_[at] = static_cast<uint16_t>(id - k.base); break;
      default: full_[at] = id;
    }
  }

  size_t size() const { return size_; }
  [[gnu::always_inline]] uint32_t operator[](size_t i) const {
    const Block k = block_[i >> kShift];
    const uint32_t w = k.where;
    const size_t at = (size_t{w & kIndexMask} << kShift) | (i & kMask);
    switch (w >> kWidthShift) {
      case kByte: {
        const uint8_t d = byte_[at];
        return d == kNoByte ? kNone : k.base + d;
      }
      case kHalf: {
        const uint16_t d = half_[at];
        return d == kNoHalf ? kNone : k.base + d;
      }
      default: return full_[at];
    }
  }

  size_t MemoryBytes() const {
    return block_.capacity() * sizeof(Block) + full_.capacity() * 4 + half_.capacity() * 2 +
           byte_.capacity();
  }

 private:
  static constexpr size_t kShift = 6;
  static constexpr size_t kBlock = size_t{1} << kShift;
  static constexpr size_t kMask = kBlock - 1;
  // Block::where: the block's width in the top two bits, its place (in blocks)
  // in that width's array below.
  static constexpr uint32_t kByte = 0, kHalf = 1, kFull = 2;
  static constexpr uint32_t kWidthShift = 30;
  static constexpr uint32_t kIndexMask = (1u << kWidthShift) - 1;
  static constexpr uint8_t kNoByte = 0xff;
  static constexpr uint16_t kNoHalf = 0xffff;

  size_t size_ = 0;
  // Per block, side by side (one cache line for both): its smallest id
  // (narrow blocks) and its width and place.
  struct Block {
    uint32_t base;
    uint32_t where;
  };
  std::vector<Block> block_;
  std::vector<uint8_t> byte_;    // blocks of 1-byte offsets
  std::vector<uint16_t> half_;   // blocks of 2-byte offsets
  std::vector<uint32_t> full_;   // blocks of plain ids
};

// Entries [begin, end) of a PackedIds, read like a std::span<const uint32_t>:
// range for, size, indexing, random-access iterators.
class PackedIdRange {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint32_t;

    iterator() = default;
    iterator(const PackedIds* ids, size_t i) : ids_(ids), i_(i) {}
    uint32_t operator*() const { return (*ids_)[i_]; }
    uint32_t operator[](difference_type k) const { return (*ids_)[i_ + k]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { iterator o = *this; ++i_; return o; }
    iterator& operator--() { --i_; return *this; }
    iterator operator--(int) { iterator o = *this; --i_; return o; }
    iterator& operator+=(difference_type k) { i_ += k; return *this; }
    iterator& operator-=(difference_type k) { i_ -= k; return *this; }
    friend iterator operator+(iterator a, difference_type k) { return a += k; }
    friend iterator operator+(difference_type k, iterator a) { return a += k; }
    friend iterator operator-(iterator a, difference_type k) { return a -= k; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.i_ <=> b.i_; }

   private:
    const PackedIds* ids_ = nullptr;
    size_t i_ = 0;
  };

  PackedIdRange() = default;
  PackedIdRange(const PackedIds* ids, size_t begin, size_t end) : ids_(ids), begin_(begin), end_(end) {}

  iterator begin() const { return {ids_, begin_}; }
  iterator end() const { return {ids_, end_}; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  uint32_t operator[](size_t k) const { return (*ids_)[begin_ + k]; }
  uint32_t front() const { return (*ids_)[begin_]; }
  uint32_t back() const { return (*ids_)[end_ - 1]; }

 private:
  const PackedIds* ids_ = nullptr;
  size_t begin_ = 0, end_ = 0;
};

}  // namespace gordian::hb
