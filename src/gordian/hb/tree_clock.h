// This file defines the wide clocks of the happens-before engine: persistent
// (structurally shared) radix trees over the goroutine index, kept in one
// arena of fixed-size nodes. Used for traces with more than
// ClockStore::kDenseWidth goroutines; narrower traces keep dense rows.
//
// Why (traces of 10,000 goroutines and more, docs/scale.md): dense rows
// cost width x 4 bytes per live goroutine, per object and per changed
// snapshot, so a program whose goroutines are all
// alive at once, or whose clocks grow one entry per goroutine (a mutex
// handed along 60,000 goroutines), costs goroutines^2. Here:
//
//   - A clock is the id of a root node. Node id 0 is the all-zero subtree
//     at every level, so a clock that knows few goroutines has few nodes.
//   - A node is 16 words: at level 0 (leaf) 16 epochs, above that 16 child
//     ids. The tree has Depth() levels, 16^Depth() >= width (2 levels up to
//     256 goroutines, 4 up to 65,536, 5 up to a million). A snapshot that
//     changes one entry copies one node per level: 16-word nodes halved the
//     clocks of narrow traces against 32-word ones (yamux's largest test,
//     186 goroutines: 122 MB to 70 MB) and cut every-clock engines by
//     a quarter (fan-out/100000: 4.4 GB to 3.1 GB) for one more level on
//     wide ones (bench/run-analysis-compare, docs/scale.md).
//   - Nodes are immutable once shared. A snapshot is a root id; taking one
//     costs O(1) and later changes copy only the paths they touch, so a
//     snapshot costs O(changed paths x depth) nodes.
//   - Join(dest, src) walks both trees together and skips subtrees that are
//     the same node or zero on the source side; where the source dominates a
//     subtree the result is the source's node itself (no copy), where the
//     destination dominates it is left alone. Acquiring a clock that the
//     goroutine already knows (the same root) costs O(1); acquiring a clock
//     that extends its own (the tree-clock case: a release clock built on
//     top of what the goroutine had) shares the source's nodes, so chains of
//     releases and acquires share structure instead of copying rows.
//   - Ownership without reference counts: every clock has an edit token and
//     every node the token of the clock that created it. A node whose token
//     is the clock's current token is reachable only from that clock (nodes
//     are handed to others only after Freeze, which gives the clock a fresh
//     token), so the clock may change it in place or recycle it when it
//     drops it. Owned nodes form a connected top of the tree: below a
//     shared node every node is shared.
//   - Join memo: every node remembers one source node it is known to
//     dominate (the last one joined into it). Joining that source again
//     skips the subtree, so a clock that absorbs many clocks built on a
//     common history (a WaitGroup collecting the Done of every goroutine of
//     a mutex chain) compares only the paths that changed since the last
//     join instead of every leaf. Nodes only grow, so the fact stays true
//     when the node is changed in place or copied. The memo is read both
//     ways: a source node whose memo is the destination's node includes
//     it, and is taken whole.
//   - Provenance (the tree-clock insight at node granularity): every node
//     a goroutine's clock creates or changes is stamped (g, e), g's own
//     epoch at the time. Knowledge of g's epoch e reaches other clocks only
//     through g's releases at epoch >= e, which carry g's whole view, so a
//     clock whose view (tree plus its extra entries, see Extras) knows g at or
//     past e includes every node stamped (g, e). A join whose source knows
//     the stamp of a destination node takes the source's node without
//     reading either (the source dominates there); one whose destination
//     knows the stamp of a source node keeps its own. This replaces the
//     leaf-by-leaf comparison of two clocks that were built apart (a
//     goroutine taking a mutex whose clock moved on since it last saw it)
//     by one lookup per subtree. Only above the leaves: at a leaf the two
//     lookups (root to leaf, at random places) cost more than comparing
//     the two leaves, which is exact. Objects' clocks stamp nothing (0): their
//     nodes are joins of several goroutines' views; a goroutine's join that
//     takes such a node stamps it with its own. So that the destination's
//     old tree can answer for the source's stamps, a join changes no node in
//     place (it copies owned nodes it changes, as shared ones) and frees the
//     nodes it drops only when it ends. The rule may lose a
//     goroutine's own entry from its own tree, which queries never read
//     (they take it from the record), as TreeJoin's shortcut in replay.cc.
//   - Memory: the arena grows in chunks that never move; nodes a clock drops
//     while it owns them go to a free list and are reused. Shared nodes have
//     no owner and no count: Collect (a mark and sweep from every live
//     clock and stored snapshot, which the engine runs when the nodes in use
//     have doubled since the last one) frees those that nothing reads any
//     more, such as the paths a goroutine released into a mutex and changed
//     again before any snapshot kept them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gordian/hb/id_recycler.h"

namespace gordian::hb {

class ClockArena {
 public:
  static constexpr uint32_t kFan = 16;     // entries per node
  static constexpr uint32_t kBits = 4;     // log2(kFan)
  static constexpr uint32_t kZeroNode = 0; // the all-zero subtree

  // A live (mutable) clock: a root and the token of the nodes it owns.
  struct Clock {
    uint32_t root = kZeroNode;
    uint64_t token = 0;  // 0 owns nothing (the zero node has token 0)
  };

  // What a clock knows beyond its tree: a goroutine's own entry, or the
  // entry of the goroutine that released into an object (g kNone: none).
  struct Extra {
    static constexpr uint32_t kNone = 0xffffffffu;
    uint32_t g = kNone;
    uint32_t e = 0;
  };
  // A node stamp: (goroutine index + 1) << 32 | epoch; 0 stamps nothing.
  static uint64_t Stamp(uint32_t g, uint32_t e) { return (uint64_t(g) + 1) << 32 | e; }

  // Several such entries: a goroutine's own entry and its overlay
  // (clock_overlay.h), or what an object's releasers left beyond its tree.
  // The array is the caller's and is read only during the call.
  struct Extras {
    const Extra* x = nullptr;
    uint32_t n = 0;
    Extras() = default;
    Extras(const Extra* xs, uint32_t count) : x(xs), n(count) {}
    Extras(const Extra& one) : x(one.g == Extra::kNone ? nullptr : &one), n(one.g == Extra::kNone ? 0 : 1) {}
  };

  // Join result bits.
  static constexpr uint32_t kChanged = 1;    // the destination rose somewhere
  static constexpr uint32_t kAboveSrc = 2;   // the result may exceed the source (set whenever it does)
  // (JoinRec inside: a subtree was decided by provenance, which is exact
  // except at the two clocks' extra entries, so no memo is recorded.)
  static constexpr uint32_t kInexact = 4;

  void Init(uint32_t width);
  uint32_t width() const { return width_; }
  uint32_t depth() const { return depth_; }

  // A fresh, empty clock (zero, owning nothing yet).
  Clock NewClock() { return Clock{kZeroNode, NewToken()}; }

  // Entry i of the tree rooted at root.
  uint32_t Get(uint32_t root, uint32_t i) const {
    uint32_t id = root;
    for (uint32_t level = depth_ - 1; level > 0; --level) {
      if (id == kZeroNode) return 0;
      id = Node(id)[(i >> (kBits * level)) & (kFan - 1)];
    }
    return id == kZeroNode ? 0 : Node(id)[i & (kFan - 1)];
  }
  // out[0..width) := the clock rooted at root.
  void Materialize(uint32_t root, uint32_t* out) const;
  // Appends to out the indices i < width where the trees rooted at a and b
  // hold different entries, in increasing order. Subtrees that are the same
  // node are skipped, so two snapshots of one clock cost the paths that
  // changed between them, not the width.
  void Differences(uint32_t a, uint32_t b, std::vector<uint32_t>* out) const;

  // Makes c's nodes shareable: later changes to c copy them. O(1).
  void Freeze(Clock* c) {
    if (c->root != kZeroNode && token_of(c->root) == c->token) c->token = NewToken();
  }
  // dest := max(dest, src), pointwise. Freezes src (its nodes may become
  // part of dest). Returns kChanged / kAboveSrc bits. dest == src: no-op.
  uint32_t Join(Clock* dest, Clock* src) { return Join(dest, Extras(), src, Extras(), 0); }
  // The same with provenance: dx and sx are the entries the two clocks know
  // beyond their trees, stamp the stamp of the nodes dest creates or
  // changes (Stamp(g, own) for a goroutine's clock, 0 for an object's).
  // Nodes whose stamp the other side knows are taken or kept whole.
  uint32_t Join(Clock* dest, Extras dx, Clock* src, Extras sx, uint64_t stamp);
  // Same for a source tree that is already shared (a snapshot root).
  uint32_t JoinShared(Clock* dest, uint32_t src_root) { return JoinShared(dest, Extras(), src_root, Extras(), 0); }
  uint32_t JoinShared(Clock* dest, Extras dx, uint32_t src_root, Extras sx, uint64_t stamp);
  // c[i] := max(c[i], v); returns whether it rose. Nodes it creates or
  // changes get `stamp`.
  bool SetMax(Clock* c, uint32_t i, uint32_t v, uint64_t stamp = 0);
  // c := src (shares src's nodes; frees what c owned).
  void Assign(Clock* c, Clock* src);
  // Frees the nodes c owns and makes it the zero clock.
  void Clear(Clock* c);

  // A collection frees every node that no root reaches, so that shared
  // nodes no snapshot reads are reused (see "Memory" above): StartCollect,
  // MarkRoot for every root (a top-level node: live clocks, object clocks,
  // stored snapshots), then FinishCollect, which returns the nodes in use
  // after it. Only between joins. Memos that name a freed node are cleared
  // (a reused id would make them lie).
  void StartCollect();
  void MarkRoot(uint32_t root);
  uint64_t marked_nodes() const { return marked_; }  // so far in this collection
  uint64_t FinishCollect();

  // Bytes of node storage allocated (chunks), and nodes in use.
  static constexpr uint64_t kNodeBytes = kFan * 4 + 20;  // entries, token, memo, stamp
  uint64_t bytes() const { return uint64_t(chunks_.size()) * kChunkNodes * kNodeBytes; }
  uint64_t bytes_in_use() const { return nodes_in_use() * kNodeBytes; }
  uint64_t nodes_in_use() const { return ids_.in_use(); }

 private:
  // 16384 nodes (2 MiB) per chunk, on ordinary pages (tree_clock.cc's
  // Alloc says why not huge ones).
  static constexpr uint32_t kChunkShift = 14;
  static constexpr uint32_t kChunkNodes = 1u << kChunkShift;

  uint32_t* Node(uint32_t id) {
    return chunks_[id >> kChunkShift].get() + size_t(id & (kChunkNodes - 1)) * kFan;
  }
  const uint32_t* Node(uint32_t id) const {
    return chunks_[id >> kChunkShift].get() + size_t(id & (kChunkNodes - 1)) * kFan;
  }
  // Starts loading what JoinRec reads of nodes d and s.
  void Prefetch(uint32_t d, uint32_t s) const {
    const char* dn = reinterpret_cast<const char*>(Node(d));
    const char* sn = reinterpret_cast<const char*>(Node(s));
    __builtin_prefetch(dn);
    __builtin_prefetch(dn + 64);
    __builtin_prefetch(sn);
    __builtin_prefetch(sn + 64);
    __builtin_prefetch(&memos_[d >> kChunkShift][d & (kChunkNodes - 1)]);
  }
  uint64_t token_of(uint32_t id) const {
    return tokens_[id >> kChunkShift][id & (kChunkNodes - 1)];
  }
  uint32_t& memo(uint32_t id) { return memos_[id >> kChunkShift][id & (kChunkNodes - 1)]; }
  uint64_t& stamp(uint32_t id) { return stamps_[id >> kChunkShift][id & (kChunkNodes - 1)]; }
  // What the clock (root, xs) knows of goroutine g.
  uint32_t Knows(uint32_t root, Extras xs, uint32_t g) const {
    uint32_t v = Get(root, g);
    for (uint32_t k = 0; k < xs.n; ++k) {
      if (xs.x[k].g == g && xs.x[k].e > v) v = xs.x[k].e;
    }
    return v;
  }
  // A shared node that a join puts into the destination's tree: one with
  // no stamp (an object's join) gets the destination's, which is true of it
  // from now on (a node holds one stamp; a true one is never replaced).
  uint32_t Adopt(uint32_t s) {
    if (stamp(s) == 0) stamp(s) = ctx_.stamp;
    return s;
  }
  // Whether the clock (root, x) includes every node stamped st.
  bool KnowsStamp(uint32_t root, Extras x, uint64_t st) const {
    return st != 0 && Knows(root, x, uint32_t(st >> 32) - 1) >= uint32_t(st);
  }
  // 64-bit: a token per freeze never wraps.
  uint64_t NewToken() { return ++last_token_; }
  uint32_t Alloc(uint64_t token);  // contents undefined
  void Free(uint32_t id) {
    if (defer_frees_) deferred_.push_back(id);
    else ids_.Give(id);
  }
  void FreeOwned(uint32_t id, uint64_t token, uint32_t level);
  uint32_t JoinRec(uint32_t level, uint32_t d, uint32_t s, uint64_t token, uint32_t* flags);

  // The join under way (JoinRec's provenance checks): the source's view,
  // the destination's view as it was before the join, and the stamp of the
  // nodes the join writes.
  struct JoinCtx {
    uint32_t src_root = kZeroNode;
    Extras sx;
    uint32_t dest_root = kZeroNode;
    Extras dx;
    uint64_t stamp = 0;
  };
  JoinCtx ctx_;
  std::vector<uint64_t> mark_;  // a collection's marks, one bit per node
  uint64_t marked_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> mark_stack_;  // (node, level)
  bool Marked(uint32_t id) const { return (mark_[id >> 6] >> (id & 63)) & 1; }
  void SetMark(uint32_t id) {
    mark_[id >> 6] |= uint64_t(1) << (id & 63);
    ++marked_;
  }
  bool defer_frees_ = false;        // during a join: nodes freed at its end
  std::vector<uint32_t> deferred_;
  void MaterializeRec(uint32_t level, uint32_t id, uint32_t base, uint32_t* out) const;
  void DifferencesRec(uint32_t level, uint32_t a, uint32_t b, uint64_t base,
                      std::vector<uint32_t>* out) const;

  uint32_t width_ = 0;
  uint32_t depth_ = 1;
  IdRecycler ids_;           // node ids
  uint64_t last_token_ = 0;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
  std::vector<std::unique_ptr<uint64_t[]>> tokens_;
  std::vector<std::unique_ptr<uint32_t[]>> memos_;  // per node: a node it dominates (0: none)
  std::vector<std::unique_ptr<uint64_t[]>> stamps_; // per node: its provenance stamp (0: none)
};

namespace internal {
// The happens-before engine uses tree clocks for traces with at least this
// many goroutines (default ClockStore::kDenseWidth + 1 = 65), dense rows
// below. Tests change it to compare both representations on one trace.
extern uint32_t tree_clock_min_width;
// Tests: the engine collects unreachable nodes every this many replay steps
// (0, the default: when the nodes in use have doubled, checked every 65536
// steps).
extern uint32_t tree_clock_collect_every;
}  // namespace internal

}  // namespace gordian::hb
