// This file implements the clocks of the clock builder (clock_builder.h):
// snapshots (CurSnap), the joins an acquire makes in rows and in tree
// clocks (AcquireRow, TreeJoin, Acquire, Inherit), the collection of tree
// nodes no clock or snapshot reaches and the memory limit it serves, and
// the assignment of clock entries to goroutines (AssignSlots).
#include <algorithm>

#include <fmt/format.h>

#include "gordian/hb/clock_builder.h"

namespace gordian::hb {

uint32_t Builder::CurSnap(uint32_t g) {
  Gor& s = g_[g];
  if (!s.dirty) return s.snap;
  s.dirty = false;
  if (tree_) {
    if (store_.exhausted()) return s.snap = ClockStore::kUnknown;  // past the budget
    // Before the snapshots are declared over their budget, free what no
    // clock or snapshot reaches any more.
    if ((arena_->bytes_in_use() > store_.budget() && arena_->nodes_in_use() >= next_collect_) ||
        (internal::tree_clock_collect_every != 0 &&
         ++snaps_taken_ % internal::tree_clock_collect_every == 0)) {
      Collect();
    }
    FoldGor(g);             // a snapshot is one tree
    arena_->Freeze(&s.tc);  // the snapshot shares the tree's nodes
    s.snap = store_.AppendTree(s.tc.root);
    if (s.snap != ClockStore::kUnknown) Stored(s.snap);
    return s.snap;
  }
  if (store_.tracks_changes()) {
    Gor::Rare& x = s.R();
    s.snap = store_.Append(Clk(g), s.snap, x.changed.data(),
                           static_cast<uint32_t>(x.changed.size()));
    for (uint32_t i : x.changed) x.changed_bit[i] = 0;
    x.changed.clear();
  } else {
    s.snap = store_.Append(Clk(g), s.snap, nullptr, 0);
  }
  return s.snap;
}

void Builder::AcquireRow(uint32_t g, const uint32_t* src) {
  uint32_t* __restrict d = Clk(g);
  Gor& s = g_[g];
  const uint32_t w = width_;  // a local: stores through d could alias width_
  if (!store_.tracks_changes()) {
    s.dirty |= JoinInto(d, src, w);
    return;
  }
  for (uint32_t i = 0; i < w; ++i) {
    if (src[i] > d[i]) {
      d[i] = src[i];
      s.dirty = true;
      Gor::Rare& x = *s.rare;  // (Clk allocated it)
      if (!x.changed_bit[i]) {
        x.changed_bit[i] = 1;
        x.changed.push_back(i);
      }
    }
  }
}

// Tree mode: g's clock := max(g's clock, src's), where src's clock is the
// tree *src and the entries sx beyond it, and src_knows_g what it knows of
// g. Returns ClockArena's join bits (kChanged also when only the overlay
// rose).
//
// The shortcut (the tree-clock insight): knowledge of g's epoch e reaches
// other clocks only through g's releases, and a release at epoch e carries
// all of g's clock as it was then (tree and overlay). So if src knows g at
// or past the epoch at which g's clock last rose (changed_at), src's clock
// includes g's whole clock (g's own entry apart, which queries take from
// the record), and the result is src's: its tree, O(1), sharing every
// node, and its entries beyond the tree as g's overlay. A release never
// precedes an acquire within one record, and epochs only grow, so
// changed_at is the own entry of the record that raised the clock.
uint32_t Builder::TreeJoin(uint32_t g, ClockArena::Clock* src, ClockArena::Extras sx,
                           Epoch src_knows_g) {
  Gor& s = g_[g];
  const uint32_t self = Slot(g);
  uint32_t f = 0;
  if (self != kNoBlock && src_knows_g >= s.changed_at) {
    const bool had = s.ov != kNoBlock && ovs_[s.ov].n != 0;
    bool extra = false;
    for (uint32_t k = 0; k < sx.n && !extra; ++k) extra = sx.x[k].g != self;
    if (src->root == s.tc.root && !had && !extra) return 0;
    if (src->root != s.tc.root) arena_->Assign(&s.tc, src);
    f = ClockArena::kChanged;  // (conservatively: the clocks may hold the same entries)
    if (had) ovs_[s.ov].Clear();
    if (extra && fold_now_) {
      for (uint32_t k = 0; k < sx.n; ++k) {
        if (sx.x[k].g != self) arena_->SetMax(&s.tc, sx.x[k].g, sx.x[k].e, OwnStamp(g));
      }
    } else if (extra) {
      ClockOverlay& ov = Ov(g);
      for (uint32_t k = 0; k < sx.n; ++k) {
        if (sx.x[k].g == self) continue;
        if (!ov.full()) ov.Put(sx.x[k].g, sx.x[k].e);
        else OverlayRaise(arena_, &s.tc, &ov, sx.x[k].g, sx.x[k].e, OwnStamp(g));
      }
    }
  } else {
    ClockArena::Extra gx[kMaxExtras];
    const uint32_t n = GorExtras(g, gx);
    f = arena_->Join(&s.tc, {gx, n}, src, sx, OwnStamp(g));
    for (uint32_t k = 0; k < sx.n; ++k) {
      if (sx.x[k].g != self && RaiseEntry(g, sx.x[k].g, sx.x[k].e)) f |= ClockArena::kChanged;
    }
  }
  if (f & ClockArena::kChanged) {
    s.dirty = true;
    s.changed_at = std::max<Epoch>(s.own, 1);
  }
  return f;
}

void Builder::Acquire(uint32_t g, uint32_t block) {
  if (block == kNoBlock) return;
  if (!tree_) {
    AcquireRow(g, pool_.at(block));
    return;
  }
  TreeObjPool::Obj& o = objs_.at(block);
  ClockArena::Extra xs[kMaxExtras];
  const ClockArena::Extras ox{xs, objs_.Extras(o, xs)};
  const Epoch knows = ViewKnows(o.c.root, ox, g);
  // g knows the release already (a producer taking back the slot a worker
  // released after it had met the producer since): nothing to learn.
  if (o.plain && o.pg != kNoBlock && Slot(g) != kNoBlock && knows < g_[g].changed_at &&
      (o.pg == Slot(g) ? g_[g].own : LiveKnowsSlot(g, o.pg)) >= o.pe) {
    return;
  }
  TreeJoin(g, &o.c, ox, knows);
}

void Builder::Inherit(uint32_t child, uint32_t parent) {
  if (!tree_) {
    AcquireRow(child, Clk(parent));
    return;
  }
  ClockArena::Extra px[kMaxExtras];
  const uint32_t n = GorExtras(parent, px);
  TreeJoin(child, &g_[parent].tc, {px, n}, ViewKnows(g_[parent].tc.root, {px, n}, child));
}

// ---------------------------------------------------------------------------
// Collection and the memory limit

void Builder::Every64kSteps() {
  if (hb_.opt_.progress) hb_.opt_.progress(steps_, rs_.size());
  // When records go without snapshots (clocks on demand, shed objects),
  // few nodes are kept by snapshots and most of what a release shared
  // and a later change replaced is garbage: collect whenever the nodes in
  // use have grown four times, limit or not (amortised: each collection
  // marks what the last one kept, once per three times as many nodes
  // allocated since; doubling marked three times as often, a tenth of
  // chan-heavy/10000's replay, for an arena of a few MB either way).
  // When most records still keep their snapshots (few objects exempt), a
  // collection frees little: after one that frees less than a quarter,
  // the next waits until the nodes have grown 64 times.
  if (tree_ && unclocked_ != nullptr && arena_->nodes_in_use() >= next_demand_collect_) {
    const uint64_t before = arena_->nodes_in_use();
    Collect();
    if (last_live_nodes_ * 4 > before * 3) demand_backoff_ = 64;
    next_demand_collect_ = std::max<uint64_t>(
        demand_backoff_ * last_live_nodes_, listed_ ? kMinListedCollectNodes : kMinDemandCollectNodes);
  }
  const uint64_t limit = hb_.opt_.memory_limit_bytes;
  if (limit == 0) return;
  uint64_t used = ClockBytesInUse();
  if (tree_ && used > limit / 2 && arena_->nodes_in_use() >= next_collect_) {
    Collect();
    used = ClockBytesInUse();
  }
  if (used > limit && tree_ && arena_->nodes_in_use() > last_live_nodes_) {
    Collect();
    used = ClockBytesInUse();
  }
  if (used > limit) {
    hb_.stats_.over_limit = true;
    hb_.stats_.steps = steps_;
  }
}

void Builder::Collect() {
  arena_->StartCollect();
  for (const Gor& s : g_) arena_->MarkRoot(s.tc.root);
  objs_.MarkRoots(arena_);
  hb_.stats_.live_clock_bytes = arena_->marked_nodes() * ClockArena::kNodeBytes;
  for (const Gor& s : g_) {
    if (s.snap != ClockStore::kUnknown) arena_->MarkRoot(s.snap);
  }
  if (listed_) {
    for (uint32_t id : stored_) arena_->MarkRoot(id);
  } else {
    hb_.snaps_.ForEachId([this](uint32_t id) { arena_->MarkRoot(id); });
  }
  last_live_nodes_ = arena_->FinishCollect();
  ++hb_.stats_.collections;
  next_collect_ = std::max<uint64_t>(2 * last_live_nodes_, kMinCollectNodes);
}

// ---------------------------------------------------------------------------
// Slots

// The clocks' entries: one per read goroutine (HbOptions::read_goroutines,
// all without it), plus the goroutines whose entries the engine reads
// itself: those with a positive WaitGroup Add (a Wait is ordered after the
// group's Dones only if every Add is ordered before it: LiveKnows).
bool Builder::AssignSlots(std::string* err) {
  const uint32_t ng = hb_.num_g_;
  const auto& read = hb_.opt_.read_goroutines;
  hb_.slot_.clear();
  hb_.slot_goroutine_.clear();
  slot_ = nullptr;
  if (read == nullptr || read->empty()) {
    // Every goroutine: entry g is goroutine index g (no maps, which would
    // cost 8 bytes a goroutine on traces of a million goroutines).
    hb_.clock_width_ = ng;
  } else {
    hb_.slot_.assign(ng, HappensBefore::kNoSlot);
    if (read->size() != ng) {
      *err = fmt::format("the read-goroutine mask has {} entries for {} goroutines", read->size(),
                         ng);
      return false;
    }
    std::vector<uint8_t> in(read->begin(), read->end());
    for (uint32_t i = 0; i < rs_.size(); ++i) {
      if (rs_[i].kind == Kind::WgAdd && int32_t(rs_[i].val) > 0) {
        in[trace::Value(ix_.GoroutineIndexOf(i))] = 1;
      }
    }
    if (std::count(in.begin(), in.end(), 1) == ptrdiff_t(ng)) {  // every one: no maps
      hb_.slot_.clear();
      hb_.clock_width_ = ng;
      width_ = std::max<uint32_t>(ng, 1);
      return true;
    }
    for (uint32_t g = 0; g < ng; ++g) {
      if (!in[g]) continue;
      hb_.slot_[g] = static_cast<uint32_t>(hb_.slot_goroutine_.size());
      hb_.slot_goroutine_.push_back(g);
    }
    hb_.clock_width_ = static_cast<uint32_t>(hb_.slot_goroutine_.size());
    slot_ = hb_.slot_.data();
  }
  // At least one entry: a clock of none would need special cases everywhere,
  // and one entry no goroutine writes never changes (costs no snapshot).
  width_ = std::max<uint32_t>(hb_.clock_width_, 1);
  return true;
}

}  // namespace gordian::hb
