// This file owns the model checker's state encoding (checker.h, an
// internal header of verify/): the layout of a state, the byte encoding of
// stored states and the store of visited states (byte-encoded in chunks,
// plus an open-addressing table). Everything here is on the search's hot
// path, so it is all inline.
//
// A state, while it is expanded, is one int32 array (stored, each word
// takes one byte in most cases: Encode):
//   [number of processes, number of objects]
//   per process: [template (-1 once ended), pc, status, locals...]
//       (an ended process keeps no locals, so equal futures merge)
//   per object, kObjSize ints: [kind, fields...] (layouts below)
// Processes come before objects, so object i is at size - kObjSize *
// (nobj - i): no offset table is stored. Objects are numbered in the order
// they were made; a new process takes the first ended process's place (not
// 0's), so a loop of short-lived goroutines does not grow the state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::verify::checker_internal {

using report::FindingKind;
using report::Primitive;

constexpr int32_t kHeader = 2;
constexpr int32_t kProcHeader = 3;  // template, pc, status
constexpr int32_t kObjSize = 6;

enum Status : int32_t {
  kRun = 0,            // about to run code[pc]
  kEnded = 1,
  kRwWaitReaders = 2,  // at a Lock of an RWMutex: announced (new readers wait), waits for readers to leave
  kCondWaiting = 3,    // at a CondWait: unlocked, waits for Signal/Broadcast
  kCondRelock = 4,     // at a CondWait: woken, relocks the locker
};

// Object layouts (field 0 is the kind).
enum ObjKind : int32_t { kOChan = 1, kOMutex, kORWMutex, kOWaitGroup, kOOnce, kOCond, kOContext, kOVar };
// chan:    cap, count, closed, timer (kTimer*)
// mutex:   holder (process, -1 free, kHolderGone: held by an ended process)
// rwmutex: writer (process announced or holding, -1, kHolderGone), writer active, readers,
//          which processes below kReaderBits hold a read lock (a bit each: a
//          writer's wait for readers is then an edge of the wait-for graph)
// wg:      counter
// once:    state (0 not run, 1 running, 2 done)
// cond:    locker object, locker is the read lock (RLocker)
// context: cancelled, parent (-1 root), done channel, a timeout may cancel it
// var:     value
enum TimerState : int32_t { kTimerNone = 0, kTimerOnce = 1, kTimerTicker = 2, kTimerOff = 3 };
constexpr int32_t kHolderGone = -2;
constexpr int32_t kReaderBits = 31;
inline int32_t ReaderBit(int32_t p) { return p < kReaderBits ? int32_t{1} << p : 0; }

inline uint64_t HashBytes(const uint8_t* s, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s + i, n - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return h;
}

// A state as stored: each word in one byte when it is in -1..253 (almost
// all are: pcs, small counts, handles, -1 for nil), else 255 and its four
// bytes. The encoding is canonical, so equal states have equal bytes.
inline void Encode(const int32_t* s, int32_t n, std::vector<uint8_t>* out) {
  out->resize(static_cast<size_t>(n) * 5);
  uint8_t* o = out->data();
  for (int32_t i = 0; i < n; ++i) {
    const uint32_t v = static_cast<uint32_t>(s[i]) + 1;
    if (v < 255) {
      *o++ = static_cast<uint8_t>(v);
    } else {
      *o++ = 255;
      std::memcpy(o, &s[i], 4);  // little-endian, as Decode reads it
      o += 4;
    }
  }
  out->resize(o - out->data());
}

inline void Decode(const uint8_t* e, size_t n, std::vector<int32_t>* out) {
  out->clear();
  for (size_t i = 0; i < n; ++i) {
    if (e[i] != 255) {
      out->push_back(static_cast<int32_t>(e[i]) - 1);
      continue;
    }
    int32_t raw;
    std::memcpy(&raw, e + i + 1, 4);
    out->push_back(raw);
    i += 4;
  }
}

// The visited states: their encoded bytes in an arena of chunks, found through an
// open-addressing table whose entries hold the state's index and 32 bits
// of its hash, so a probe touches the arena only on a likely match.
class StateStore {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  StateStore() { table_.assign(1 << 12, kEmpty); }

  uint32_t size() const { return static_cast<uint32_t>(starts_.size()); }
  const uint8_t* Bytes(uint32_t i) const {
    const uint8_t* p = starts_[i];
    while (*p & 0x80) ++p;  // the length prefix
    return p + 1;
  }
  size_t Length(uint32_t i) const {
    const uint8_t* p = starts_[i];
    size_t n = 0;
    for (int shift = 0;; shift += 7, ++p) {
      n |= static_cast<size_t>(*p & 0x7f) << shift;
      if (!(*p & 0x80)) return n;
    }
  }
  void Get(uint32_t i, std::vector<int32_t>* out) const { Decode(Bytes(i), Length(i), out); }

  // Brings h's first table slot into the cache ahead of Find or Insert.
  void Prefetch(uint64_t h) const { __builtin_prefetch(&table_[h & (table_.size() - 1)]); }

  uint32_t Find(const uint8_t* e, size_t n, uint64_t h) const {
    const size_t mask = table_.size() - 1;
    const uint64_t tag = h >> 32;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const uint64_t x = table_[i];
      if (x == kEmpty) return kNone;
      if ((x >> 32) == tag && Equal(static_cast<uint32_t>(x), e, n)) return static_cast<uint32_t>(x);
    }
  }

  // The index of e, and whether it was new.
  std::pair<uint32_t, bool> Insert(const uint8_t* e, size_t n, uint64_t h) {
    const size_t mask = table_.size() - 1;
    const uint64_t tag = h >> 32;
    size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
      const uint64_t x = table_[i];
      if (x == kEmpty) break;
      if ((x >> 32) == tag && Equal(static_cast<uint32_t>(x), e, n)) return {static_cast<uint32_t>(x), false};
    }
    const uint32_t idx = size();
    table_[i] = (tag << 32) | idx;
    low_hashes_.push_back(static_cast<uint32_t>(h));
    uint8_t prefix[10];
    size_t plen = 0;
    for (size_t v = n;; v >>= 7) {
      prefix[plen++] = static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80) break;
    }
    uint8_t* at = Allocate(plen + n);
    std::memcpy(at, prefix, plen);
    std::memcpy(at + plen, e, n);
    starts_.push_back(at);
    if (static_cast<size_t>(idx + 1) * 2 > table_.size()) Grow();
    return {idx, true};
  }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // no state has index 2^32-1

  bool Equal(uint32_t x, const uint8_t* e, size_t n) const {
    return Length(x) == n && std::memcmp(Bytes(x), e, n) == 0;
  }
  // Doubles the table; positions come from the stored low hash bits.
  void Grow() {
    std::vector<uint64_t> t(table_.size() * 2, kEmpty);
    const size_t mask = t.size() - 1;
    for (uint64_t x : table_) {
      if (x == kEmpty) continue;
      size_t i = low_hashes_[static_cast<uint32_t>(x)] & mask;
      while (t[i] != kEmpty) i = (i + 1) & mask;
      t[i] = x;
    }
    table_.swap(t);
  }

  // Room for n bytes: states never move, and the arena grows a chunk at a
  // time (no doubling copy, so the peak is what is stored).
  uint8_t* Allocate(size_t n) {
    if (chunks_.empty() || used_ + n > chunk_size_) {
      chunk_size_ = std::max<size_t>(kChunk, n);
      chunks_.push_back(std::unique_ptr<uint8_t[]>(new uint8_t[chunk_size_]));  // untouched pages cost nothing
      used_ = 0;
    }
    uint8_t* at = chunks_.back().get() + used_;
    used_ += n;
    return at;
  }
  static constexpr size_t kChunk = size_t{8} << 20;

  // Each state: a LEB128 length, then its bytes.
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t used_ = 0, chunk_size_ = 0;
  std::vector<const uint8_t*> starts_;
  std::vector<uint64_t> table_;
  std::vector<uint32_t> low_hashes_;  // per state: where it goes in a table of up to 2^32 slots
};

}  // namespace gordian::verify::checker_internal
