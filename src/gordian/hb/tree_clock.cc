// This file implements the radix-tree clock arena: node allocation with a
// free list, copy-on-write by edit token, and the structural join (see
// tree_clock.h for the design).
#include "gordian/hb/tree_clock.h"

#include <algorithm>
#include <cstring>

namespace gordian::hb {
uint32_t internal::tree_clock_min_width = 65;
uint32_t internal::tree_clock_collect_every = 0;

namespace {

// r := max(d, s) over one leaf; bit 1: r rose above d, bit 2: r exceeds s.
// Branch-free so that it vectorises; compiled for AVX2 as well and picked
// at load time where the CPU has it (as replay.cc's row kernels).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
uint32_t MaxLeaf(const uint32_t* __restrict d, const uint32_t* __restrict s,
                 uint32_t* __restrict r) {
  uint32_t up = 0, above = 0;
  for (uint32_t k = 0; k < ClockArena::kFan; ++k) {
    uint32_t a = d[k], b = s[k];
    uint32_t m = a < b ? b : a;
    up |= m ^ a;
    above |= m ^ b;
    r[k] = m;
  }
  return (up != 0 ? 1u : 0u) | (above != 0 ? 2u : 0u);
}

}  // namespace

void ClockArena::Init(uint32_t width) {
  width_ = std::max<uint32_t>(width, 1);
  depth_ = 1;
  while (depth_ < 7 && (uint64_t(1) << (kBits * depth_)) < width_) ++depth_;
  chunks_.clear();
  tokens_.clear();
  memos_.clear();
  stamps_.clear();
  ids_.Clear();
  last_token_ = 0;
  // Node 0: the zero subtree, owned by no clock (token 0).
  uint32_t z = Alloc(0);
  std::memset(Node(z), 0, kFan * 4);
}

uint32_t ClockArena::Alloc(uint64_t token) {
  bool fresh;
  uint32_t id = ids_.Take(&fresh);
  if (fresh && (id >> kChunkShift) >= chunks_.size()) {
    // `new T[]` leaves the pages untouched until written. Not on huge
    // pages: in 2 MiB-aligned chunks with huge pages advised
    // (std::aligned_alloc, or an aligned part of a larger malloc) the race
    // bench reporter's analysis peaked 25 to 60 MB higher (it could not
    // reuse the malloc heap's free memory, and its partly used huge pages
    // were resident whole).
    chunks_.emplace_back(new uint32_t[size_t(kChunkNodes) * kFan]);
    tokens_.emplace_back(new uint64_t[kChunkNodes]);
    memos_.emplace_back(new uint32_t[kChunkNodes]);
    stamps_.emplace_back(new uint64_t[kChunkNodes]);
  }
  tokens_[id >> kChunkShift][id & (kChunkNodes - 1)] = token;
  memo(id) = kZeroNode;
  stamp(id) = 0;
  return id;
}

void ClockArena::StartCollect() {
  mark_.assign((uint64_t(ids_.issued()) + 63) / 64, 0);
  marked_ = 0;
  SetMark(kZeroNode);
}

void ClockArena::MarkRoot(uint32_t root) {
  if (root >= ids_.issued() || Marked(root)) return;
  SetMark(root);
  if (depth_ == 1) return;
  mark_stack_.push_back({root, depth_ - 1});
  // Only nodes above the leaves are read (a leaf's entries are epochs, not
  // ids): leaves are marked without a visit, and a node to be read is asked
  // for when it is pushed, so that its load overlaps the reading of its
  // siblings (the walk over a large arena is otherwise one miss per node).
  while (!mark_stack_.empty()) {
    auto [id, level] = mark_stack_.back();
    mark_stack_.pop_back();
    const uint32_t* n = Node(id);
    for (uint32_t k = 0; k < kFan; ++k) {
      uint32_t c = n[k];
      if (Marked(c)) continue;
      SetMark(c);
      if (level == 1) continue;
      const char* cn = reinterpret_cast<const char*>(Node(c));
      __builtin_prefetch(cn);
      __builtin_prefetch(cn + 64);
      mark_stack_.push_back({c, level - 1});
    }
  }
}

uint64_t ClockArena::FinishCollect() {
  const uint32_t issued = ids_.issued();
  std::vector<uint32_t> free;
  for (uint32_t id = issued; id-- > 1;) {  // the lowest id is reused first
    if (Marked(id)) {
      if (uint32_t m = memo(id); m != kZeroNode && !Marked(m)) memo(id) = kZeroNode;
      continue;
    }
    tokens_[id >> kChunkShift][id & (kChunkNodes - 1)] = 0;
    free.push_back(id);
  }
  const uint64_t in_use = issued - free.size();
  ids_.SetFree(std::move(free));
  std::vector<uint64_t>().swap(mark_);
  return in_use;
}

void ClockArena::FreeOwned(uint32_t id, uint64_t token, uint32_t level) {
  if (id == kZeroNode || token_of(id) != token) return;
  if (level > 0) {
    const uint32_t* n = Node(id);
    for (uint32_t k = 0; k < kFan; ++k) FreeOwned(n[k], token, level - 1);
  }
  tokens_[id >> kChunkShift][id & (kChunkNodes - 1)] = 0;
  Free(id);
}

void ClockArena::Clear(Clock* c) {
  FreeOwned(c->root, c->token, depth_ - 1);
  c->root = kZeroNode;
}

void ClockArena::Assign(Clock* c, Clock* src) {
  if (c == src) return;
  Freeze(src);
  FreeOwned(c->root, c->token, depth_ - 1);
  c->root = src->root;
}

uint32_t ClockArena::Join(Clock* dest, Extras dx, Clock* src, Extras sx, uint64_t st) {
  if (dest == src) return 0;
  Freeze(src);
  return JoinShared(dest, dx, src->root, sx, st);
}

uint32_t ClockArena::JoinShared(Clock* dest, Extras dx, uint32_t src_root, Extras sx, uint64_t st) {
  ctx_.src_root = src_root;
  ctx_.sx = sx;
  // The destination's view as it was answers for the source's stamps: the
  // join changes no node in place and frees the nodes it drops only at the
  // end, so the old tree stays readable throughout.
  ctx_.dest_root = dest->root;
  ctx_.dx = dx;
  ctx_.stamp = st;
  defer_frees_ = true;
  uint32_t flags = 0;
  dest->root = JoinRec(depth_ - 1, dest->root, src_root, dest->token, &flags);
  defer_frees_ = false;
  for (uint32_t id : deferred_) ids_.Give(id);
  deferred_.clear();
  return flags & (kChanged | kAboveSrc);
}

// The join of subtrees d (the destination's, possibly owned by `token`) and
// s (shared) at `level`. Returns the result's node: d itself (changed in
// place if owned), s itself where it dominates, or a new owned node.
uint32_t ClockArena::JoinRec(uint32_t level, uint32_t d, uint32_t s, uint64_t token,
                             uint32_t* flags) {
  if (d == s) return d;
  if (s == kZeroNode) {
    *flags |= kAboveSrc;
    return d;
  }
  if (d == kZeroNode) {
    *flags |= kChanged;
    return Adopt(s);
  }
  if (memo(d) == s) {  // d already includes s (perhaps equals it)
    *flags |= kAboveSrc;
    return d;
  }
  if (memo(s) == d) {  // s already includes d: the result is s
    *flags |= kChanged;
    FreeOwned(d, token, level);
    return Adopt(s);
  }
  // Provenance (tree_clock.h): a side that knows the other's node stamp
  // includes that node.
  bool dest_has_s = level > 0 && KnowsStamp(ctx_.dest_root, ctx_.dx, stamp(s));
  if (level > 0 && KnowsStamp(ctx_.src_root, ctx_.sx, stamp(d))) {
    if (dest_has_s) {  // the same entries
      *flags |= kInexact;
      return d;
    }
    *flags |= kChanged | kInexact;
    FreeOwned(d, token, level);
    return Adopt(s);
  }
  if (dest_has_s) {
    *flags |= kAboveSrc | kInexact;
    return d;
  }
  uint32_t r[kFan];
  const uint32_t* dn = Node(d);
  const uint32_t* sn = Node(s);
  bool same_d, same_s;
  bool exact = true;  // whether memo facts may be recorded
  if (level == 0) {
    uint32_t bits = MaxLeaf(dn, sn, r);
    same_d = (bits & 1) == 0;
    same_s = (bits & 2) == 0;
  } else {
    // Per child: did it rise above d's, does it exceed s's (by content: two
    // different nodes may hold the same entries).
    uint32_t local = 0;
    // The children that differ are read at random places of the arena:
    // ask for all of them first so that their misses overlap.
    for (uint32_t k = 0; k < kFan; ++k) {
      uint32_t a = dn[k], b = sn[k];
      if (a != b && a != kZeroNode && b != kZeroNode) Prefetch(a, b);
    }
    for (uint32_t k = 0; k < kFan; ++k) {
      uint32_t a = dn[k], b = sn[k];
      r[k] = a == b ? a : JoinRec(level - 1, a, b, token, &local);
    }
    same_d = (local & kChanged) == 0;
    same_s = (local & kAboveSrc) == 0;
    exact = (local & kInexact) == 0;
    *flags |= local & kInexact;
    if (same_s && !same_d) {
      // The result equals s: share s, and free the children of d this
      // clock owned that the result kept (content-equal to s's).
      for (uint32_t k = 0; k < kFan; ++k) {
        if (r[k] != sn[k]) FreeOwned(r[k], token, level - 1);
      }
    }
  }
  if (same_d) {
    if (!same_s) *flags |= kAboveSrc;
    if (exact) memo(d) = s;
    return d;
  }
  *flags |= kChanged;
  bool owned = token_of(d) == token;
  if (same_s) {
    // The source dominates: share its node. The children of d that d owned
    // were freed above or by the recursion.
    if (owned) {
      tokens_[d >> kChunkShift][d & (kChunkNodes - 1)] = 0;
      Free(d);
    }
    return Adopt(s);
  }
  *flags |= kAboveSrc;
  uint32_t n = Alloc(token);  // (not d in place: see JoinShared)
  if (owned) {
    tokens_[d >> kChunkShift][d & (kChunkNodes - 1)] = 0;
    Free(d);
  }
  std::memcpy(Node(n), r, sizeof r);
  memo(n) = exact ? s : kZeroNode;
  stamp(n) = ctx_.stamp;
  return n;
}

bool ClockArena::SetMax(Clock* c, uint32_t i, uint32_t v, uint64_t st) {
  if (Get(c->root, i) >= v) return false;
  uint32_t* slot = &c->root;
  for (uint32_t level = depth_; level-- > 0;) {
    uint32_t id = *slot;
    if (id == kZeroNode || token_of(id) != c->token) {
      uint32_t n = Alloc(c->token);
      if (id == kZeroNode) std::memset(Node(n), 0, kFan * 4);
      else std::memcpy(Node(n), Node(id), kFan * 4);
      *slot = n;
      id = n;
    }
    stamp(id) = st;
    uint32_t* node = Node(id);
    uint32_t k = (i >> (kBits * level)) & (kFan - 1);
    if (level == 0) node[k] = v;
    else slot = &node[k];
  }
  return true;
}

void ClockArena::MaterializeRec(uint32_t level, uint32_t id, uint32_t base, uint32_t* out) const {
  const uint32_t* n = Node(id);
  if (level == 0) {
    uint32_t m = std::min<uint32_t>(kFan, width_ - base);
    std::memcpy(out + base, n, size_t(m) * 4);
    return;
  }
  uint64_t span = uint64_t(1) << (kBits * level);
  for (uint32_t k = 0; k < kFan; ++k) {
    uint64_t b = base + k * span;
    if (b >= width_) break;
    if (n[k] != kZeroNode) MaterializeRec(level - 1, n[k], uint32_t(b), out);
  }
}

void ClockArena::DifferencesRec(uint32_t level, uint32_t a, uint32_t b, uint64_t base,
                                std::vector<uint32_t>* out) const {
  // The zero node stands for an all-zero subtree at every level.
  static constexpr uint32_t kZeros[kFan] = {};
  const uint32_t* na = a == kZeroNode ? kZeros : Node(a);
  const uint32_t* nb = b == kZeroNode ? kZeros : Node(b);
  if (level == 0) {
    for (uint32_t k = 0; k < kFan && base + k < width_; ++k) {
      if (na[k] != nb[k]) out->push_back(uint32_t(base + k));
    }
    return;
  }
  uint64_t span = uint64_t(1) << (kBits * level);
  for (uint32_t k = 0; k < kFan && base + k * span < width_; ++k) {
    if (na[k] != nb[k]) DifferencesRec(level - 1, na[k], nb[k], base + k * span, out);
  }
}

void ClockArena::Differences(uint32_t a, uint32_t b, std::vector<uint32_t>* out) const {
  if (a != b) DifferencesRec(depth_ - 1, a, b, 0, out);
}

void ClockArena::Materialize(uint32_t root, uint32_t* out) const {
  std::fill(out, out + width_, 0u);
  if (root != kZeroNode) MaterializeRec(depth_ - 1, root, 0, out);
}

}  // namespace gordian::hb
