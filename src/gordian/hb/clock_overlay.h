// This file defines ClockOverlay: the few entries a tree clock
// (tree_clock.h) knows beyond its tree, kept apart so that raising them
// copies no path.
//
// Why (chan-heavy at 10,000 goroutines, docs/scale.md): a goroutine's tree is
// shared (frozen) by nearly every operation, since every release and every
// rendezvous hands it to another clock. Raising one entry of a frozen tree
// copies the path to it (root, middle and leaf: 3 nodes, 444 bytes at
// 10,000 goroutines), and the next release makes the copy garbage. A
// worker's cycle of chan-heavy (take a job from a buffered channel, hand
// the result back at a rendezvous) raised three entries of frozen trees:
// the producer's entry into the worker's tree at the receive, both own
// entries into the shared tree at the rendezvous; 8 node copies a cycle.
// Kept in an overlay, the entries travel with the clock (a release copies
// the overlay into the object, an acquire merges it in) and reach the tree
// only when the overlay is full or a snapshot needs the whole clock in one
// tree; then all of them at once (a fold), so that entries of goroutines
// with neighbouring indices share their path copies.
//
// A clock is then (tree, overlay): entry i is the larger of the tree's and
// the overlay's. The overlay holds distinct indices; an index absent from
// it reads as 0 there.
#pragma once

#include <cstdint>

#include "gordian/hb/tree_clock.h"

namespace gordian::hb {

struct ClockOverlay {
  // 15 entries and the count: 124 bytes, two cache lines.
  static constexpr uint32_t kCap = 15;
  // A raise (OverlayRaise) that finds this many entries folds them first.
  // Below kCap: a clock that takes a whole overlay (a release, an acquire
  // of a clock that includes its own) adds the releaser's own entry to
  // what it took, so overlays handed along grow by one at each hand; the
  // clocks that learn entries one by one (a producer meeting workers) fold
  // at half the capacity, and what they hand along has room for a few
  // more hands before it must be folded.
  static constexpr uint32_t kRaiseLimit = 8;
  uint32_t n = 0;
  ClockArena::Extra e[kCap];

  // Entry i here (0: absent).
  uint32_t Get(uint32_t i) const {
    for (uint32_t k = 0; k < n; ++k) {
      if (e[k].g == i) return e[k].e;
    }
    return 0;
  }
  bool full() const { return n == kCap; }
  ClockArena::Extras extras() const { return {e, n}; }
  // Adds entry i = v (i absent, the overlay not full).
  void Put(uint32_t i, uint32_t v) { e[n++] = {i, v}; }
  void Clear() { n = 0; }
  // Drops entry i if present.
  void Remove(uint32_t i) {
    for (uint32_t k = 0; k < n; ++k) {
      if (e[k].g == i) {
        e[k] = e[--n];
        return;
      }
    }
  }
};

// Entry i of the clock (c, ov).
inline uint32_t OverlayGet(const ClockArena& a, const ClockArena::Clock& c, const ClockOverlay& ov,
                           uint32_t i) {
  uint32_t v = ov.Get(i);
  uint32_t t = a.Get(c.root, i);
  return t > v ? t : v;
}

// Moves every overlay entry into the tree (SetMax with `stamp`), emptying
// the overlay. The clock's entries are unchanged.
void FoldOverlay(ClockArena* a, ClockArena::Clock* c, ClockOverlay* ov, uint64_t stamp);

// Entry i of the clock (c, ov) := max(it, v): in the overlay when i is
// there or it holds fewer than kRaiseLimit entries (and the tree is below
// v), else after a fold.
// Returns whether the entry rose. Tree nodes it writes get `stamp`.
bool OverlayRaise(ClockArena* a, ClockArena::Clock* c, ClockOverlay* ov, uint32_t i, uint32_t v,
                  uint64_t stamp);

}  // namespace gordian::hb
