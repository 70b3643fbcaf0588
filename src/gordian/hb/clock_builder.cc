// This file implements the clock builder: the walk over the thread-local
// traces, in stamp order, that gives every record its pre and post vector
// clocks (it runs no program): the scheduler (stamp order with
// parking on unmet dependencies) and one rule per synchronisation primitive.
// The rules follow Sulzmann and Stadtmüller's two-phase analysis (Figure 3:
// Signal/Wait, Sync, Send, Receive, Receive-Closed, Close, Default) and
// extend it to Go's sync package.
//
// Clock conventions: every live goroutine has a current clock (a row of
// `width` epochs in the clock pool). When record p of goroutine g is replayed
// its own entry is set to 2p+2 (the post epoch) before anything is released,
// so that whoever acquires the released clock knows g up to p's completion.
// Acquires raise other entries of g's clock and mark it dirty; the next
// snapshot request then appends a snapshot to the clock store. A record's
// pre snapshot is taken before its acquire, its post snapshot after.
//
// Wide traces (more than ClockStore::kDenseWidth goroutines) use tree clocks
// instead of rows (tree_clock.h): a goroutine's clock is a persistent radix
// tree without its own entry, which is kept apart (Gor::own) because it
// changes at every record, and an overlay of a few other entries known
// beyond the tree (clock_overlay.h: what a rendezvous or an acquire added
// lately), so that raising them copies no path of the shared tree; a
// snapshot is the tree's root, with the overlay folded in. An object's
// clock is a tree plus an overlay: the releaser's own entry and overlay,
// so that a plain release (Unlock, a buffered send) shares the releaser's
// tree and copies nothing. Finished goroutines and freed object clocks
// return the nodes they own to the arena.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/hb/happens_before.h"

#include "gordian/hb/clock_overlay.h"
#include "gordian/hb/id_recycler.h"
#include "gordian/hb/stamp_order.h"

namespace gordian::hb {

using trace::Kind;
using trace::Record;

namespace {

constexpr uint32_t kNoBlock = 0xffffffffu;

// Fixed-width clocks for goroutines and objects, allocated from chunks that
// never move (pointers stay valid), recycled through a free list.
class ClockPool {
 public:
  void Init(uint32_t width) { width_ = width; }
  uint32_t Alloc() {
    bool fresh;
    uint32_t id = ids_.Take(&fresh);
    if (fresh && (id >> kShift) >= chunks_.size()) {
      chunks_.emplace_back(new uint32_t[size_t(width_) << kShift]);
    }
    std::memset(at(id), 0, size_t(width_) * 4);
    return id;
  }
  void Free(uint32_t id) { ids_.Give(id); }
  uint32_t* at(uint32_t id) {
    return chunks_[id >> kShift].get() + size_t(id & kMask) * width_;
  }
  uint64_t bytes() const { return uint64_t(chunks_.size()) * (uint64_t(width_) << kShift) * 4; }

 private:
  static constexpr uint32_t kShift = 8, kMask = 255;
  uint32_t width_ = 0;
  IdRecycler ids_;
  std::vector<std::unique_ptr<uint32_t[]>> chunks_;
};

inline uint64_t ObjKey(ObjClass c, uint32_t dense) { return (uint64_t(c) << 32) | dense; }

// Object clocks in tree mode: a tree, the releaser's own entry (pg, pe;
// pg kNoBlock: none) and, when the releaser knew more beyond its tree, an
// overlay (clock_overlay.h), so that a plain release (Unlock, a buffered
// send) shares the releaser's tree and copies nothing. The overlay is
// apart and only where one is needed: an object is 32 bytes (a million
// of them in worker-pool's every-clock build). Recycled through a free
// list like ClockPool.
class TreeObjPool {
 public:
  struct Obj {
    ClockArena::Clock c;
    uint32_t pg = kNoBlock;
    Epoch pe = 0;
    uint32_t ov = kNoBlock;  // its overlay in ovs_ (kNoBlock: none)
    // The clock is what goroutine entry pg knew at its own epoch pe (a
    // plain Release; a join clears it), so a goroutine that knows pg at pe
    // or later knows all of it (the shortcut of TreeJoin, seen from the
    // acquirer's side).
    bool plain = false;
  };
  void Init(ClockArena* a) { a_ = a; }
  uint32_t Alloc() {
    bool fresh;
    uint32_t id = ids_.Take(&fresh);
    if (fresh) objs_.emplace_back();
    objs_[id] = Obj{a_->NewClock(), kNoBlock, 0, kNoBlock, false};
    return id;
  }
  void Free(uint32_t id) {
    a_->Clear(&objs_[id].c);
    DropOv(&objs_[id]);
    ids_.Give(id);
  }
  Obj& at(uint32_t id) { return objs_[id]; }
  // o's overlay, made (empty) if it has none.
  ClockOverlay& Ov(Obj* o) {
    if (o->ov == kNoBlock) {
      bool fresh;
      o->ov = ov_ids_.Take(&fresh);
      if (fresh) ovs_.emplace_back();
      ovs_[o->ov].Clear();
    }
    return ovs_[o->ov];
  }
  void DropOv(Obj* o) {
    if (o->ov != kNoBlock) ov_ids_.Give(o->ov);
    o->ov = kNoBlock;
  }
  // The entries o knows beyond its tree into out[0..ClockOverlay::kCap+1);
  // returns how many.
  uint32_t Extras(const Obj& o, ClockArena::Extra* out) const {
    uint32_t n = 0;
    if (o.ov != kNoBlock) {
      const ClockOverlay& v = ovs_[o.ov];
      for (uint32_t k = 0; k < v.n; ++k) out[n++] = v.e[k];
    }
    if (o.pg != kNoBlock) out[n++] = {o.pg, o.pe};
    return n;
  }
  uint64_t bytes() const {
    return objs_.capacity() * sizeof(Obj) + ovs_.capacity() * sizeof(ClockOverlay);
  }
  // Marks the root of every object clock for a collection (free slots
  // hold the zero clock).
  void MarkRoots(ClockArena* a) const {
    for (const Obj& o : objs_) a->MarkRoot(o.c.root);
  }

 private:
  ClockArena* a_ = nullptr;
  std::vector<Obj> objs_;
  IdRecycler ids_;
  std::vector<ClockOverlay> ovs_;
  IdRecycler ov_ids_;
};

// The two clock kernels of the replay, branch-free so that they vectorise;
// compiled for AVX2 as well and picked at load time where the CPU has it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GORDIAN_CLOCK_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define GORDIAN_CLOCK_KERNEL
#endif

// d := max(d, s); returns whether d changed.
GORDIAN_CLOCK_KERNEL
bool JoinInto(uint32_t* __restrict d, const uint32_t* __restrict s, uint32_t w) {
  uint32_t ch = 0;
  for (uint32_t i = 0; i < w; ++i) {
    uint32_t a = d[i], b = s[i];
    uint32_t m = a < b ? b : a;
    ch |= m ^ a;
    d[i] = m;
  }
  return ch != 0;
}

// x, y := max(x, y); reports which of them changed.
GORDIAN_CLOCK_KERNEL
void JoinBoth(uint32_t* __restrict x, uint32_t* __restrict y, uint32_t w, bool* cx, bool* cy) {
  uint32_t ax = 0, ay = 0;
  for (uint32_t i = 0; i < w; ++i) {
    uint32_t u = x[i], v = y[i];
    uint32_t m = u < v ? v : u;
    ax |= m ^ u;
    ay |= m ^ v;
    x[i] = m;
    y[i] = m;
  }
  *cx = ax != 0;
  *cy = ay != 0;
}

}  // namespace

class Builder {
 public:
  Builder(HappensBefore* hb, const trace::Trace& t)
      : hb_(*hb), t_(t), rs_(t.records), ix_(hb->ops()) {}
  bool Run(std::string* err);

 private:
  enum State : uint8_t { kReady, kParked, kDone };
  // One cache line: with thousands of goroutines the scheduler loads a
  // goroutine's state from memory at nearly every step (Advance).
  struct alignas(64) Gor {
    uint32_t begin = 0, end = 0, cursor = 0;
    uint32_t clock = kNoBlock;
    ClockArena::Clock tc;          // tree mode: the clock without its own entry
    Epoch own = 0;                 // tree mode: its own entry
    Epoch changed_at = 1;          // tree mode: own entry when tc last rose (at least 1)
    uint32_t snap = ClockStore::kZero;
    uint32_t token = 0;
    State state = kDone;
    bool dirty = false;
    bool pre_done = false;         // CondWait at the head: pre step replayed
    bool in_once = false;          // rare->once_stack is not empty
    uint32_t ov = kNoBlock;        // tree mode: its overlay in ovs_ (kNoBlock: none yet)
    // What a goroutine needs only while it holds a lock, runs a Once's f
    // or keeps a wide row: apart (allocated on first use, freed when it
    // ends), so that the state of a million goroutines stays at 64 bytes
    // each instead of 160.
    struct Rare {
      std::vector<uint32_t> once_stack;  // Once.Do records whose f is running (in_once)
      uint64_t cond_mutex = ~0ull;       // mutex the pending CondWait released
      std::vector<uint64_t> locks;       // write-held mutexes (for Cond.Wait)
      std::vector<uint32_t> changed;     // wide rows: entries changed since snap
      std::vector<uint8_t> changed_bit;
    };
    std::unique_ptr<Rare> rare;
    Rare& R() {
      if (!rare) rare = std::make_unique<Rare>();
      return *rare;
    }
    bool OnceRunning() const { return in_once; }
  };
  static_assert(sizeof(Gor) == 64, "a goroutine's state is one cache line");
  struct RecWaiter { uint32_t rec, g, token; };
  struct ObjWaiter { uint64_t key; uint32_t g, token; };
  struct Mutex { uint32_t relw = kNoBlock, relr = kNoBlock; int32_t readers = 0; uint32_t writer = 0; };
  struct Chan { uint32_t close_clock = kNoBlock; std::vector<uint32_t> ring; };
  struct Wg {
    uint32_t clock = kNoBlock;
    int64_t counter = 0;
    std::vector<std::pair<uint32_t, Epoch>> adders;  // goroutine, its latest Add's post epoch
  };
  struct Once { uint32_t clock = kNoBlock; bool done = false; };

  // --- scheduling
  uint32_t HeadKey(uint32_t g) const;
  bool OncePostDue(const Gor& s) const {
    if (!s.OnceRunning()) return false;
    const Record& top = rs_[s.rare->once_stack.back()];
    return top.tpost != 0 && (s.cursor >= s.end || rs_[s.cursor].tpre > top.tpost);
  }
  // The scheduler replays the ready goroutine whose next step has the
  // smallest (stamp, goroutine index) (HeadKey). Its candidates are the
  // stamp order (stamp_order.h: every step any goroutine can take, sorted,
  // a window at a time in order_, walked once from order_pos_) and late_,
  // a heap of the goroutines whose next step the walk has already passed:
  // woken after parking, or whose stamps go backwards (an inconsistent
  // trace). A candidate is valid when its goroutine is ready and its next
  // step is still that one; others are dropped. So a goroutine that becomes
  // ready or moves on needs a heap entry only when the walk is past its
  // step (Push); otherwise the walk will meet it. On traces whose stamps
  // are unique and rise in each goroutine (every recorded run) this is the
  // order of the heap over all goroutines that the engine used before
  // (checked on 600 random traces with parking and forcing, clocks equal),
  // while reading the steps in order. Where stamps repeat or go backwards
  // both are stamp orders with parking, which may differ on ties.
  static uint64_t Candidate(uint32_t key, uint32_t g) { return (uint64_t(key) << 32) | g; }
  void Push(uint32_t g) {
    const uint64_t v = Candidate(HeadKey(g), g);
    if (v > walked_) return;
    late_.push_back(v);
    std::push_heap(late_.begin(), late_.end(), std::greater<uint64_t>());
  }
  bool Valid(uint64_t v) const {
    const uint32_t g = uint32_t(v);
    return g_[g].state == kReady && HeadKey(g) == uint32_t(v >> 32);
  }
  // The smallest valid candidate, left in place; false when none is left.
  bool Front(uint64_t* out);
  // Takes the candidate Front returned.
  void TakeFront(uint64_t v) {
    if (order_pos_ < order_.size() && order_[order_pos_] == v) {
      Advance();
    } else {
      std::pop_heap(late_.begin(), late_.end(), std::greater<uint64_t>());
      late_.pop_back();
    }
  }
  // Moves the walk one step on. With thousands of goroutines each runs
  // about once in as many steps, so its state, its next record and what
  // its step reads are no longer cached when it runs: the walk knows which
  // goroutine comes when, and starts loading them in stages, each once the
  // previous one's loads are likely there: the goroutine's state 24 steps
  // ahead; 12 steps ahead its next record and the one after, the record's
  // index entries and its rare state; 4 steps ahead its lock stack.
  void Advance() {
    walked_ = order_[order_pos_++];
    constexpr size_t kState = 24, kRecord = 12, kLocks = 4;
    const size_t n = order_.size();
    if (order_pos_ + kState < n) __builtin_prefetch(&g_[uint32_t(order_[order_pos_ + kState])]);
    if (order_pos_ + kRecord < n) {
      const uint32_t h = uint32_t(order_[order_pos_ + kRecord]);
      const Gor& s = g_[h];
      if (s.cursor < s.end) {
        __builtin_prefetch(&rs_[s.cursor]);
        // The two records after it (their lines, when the three are on
        // more than one): a goroutine often replays two records in a turn
        // (Lock and Unlock), then reads the next one to know when it runs
        // again (HeadKey, Push).
        if (s.cursor + 1 < s.end) __builtin_prefetch(&rs_[s.cursor + 1]);
        if (s.cursor + 2 < s.end) __builtin_prefetch(&rs_[s.cursor + 2]);
        ix_.PrefetchRecord(s.cursor);
        if (unclocked_ != nullptr) __builtin_prefetch(unclocked_->WordOf(s.cursor));
      }
      if (s.rare) __builtin_prefetch(s.rare.get());
      if (s.ov != kNoBlock) {
        __builtin_prefetch(&ovs_[s.ov]);
        __builtin_prefetch(reinterpret_cast<const char*>(&ovs_[s.ov]) + 64);
      }
      __builtin_prefetch(&rec_waiters_[h]);
    }
    if (order_pos_ + kLocks < n) {
      const Gor& s = g_[uint32_t(order_[order_pos_ + kLocks])];
      if (s.rare && !s.rare->locks.empty()) __builtin_prefetch(s.rare->locks.data());
    }
  }
  void Step(uint32_t g);
  uint64_t steps_ = 0;  // for HbOptions::progress and memory_limit_bytes
  // What the engine's clocks hold now: tree nodes in use (not the arena's
  // chunks, which never shrink: a collection makes room inside them), rows,
  // object slots.
  uint64_t ClockBytesInUse() const {
    return (tree_ ? arena_->bytes_in_use() : store_.bytes()) + pool_.bytes() + objs_.bytes() +
           ovs_.capacity() * sizeof(ClockOverlay);
  }
  // The memory limit (HbOptions::memory_limit_bytes). In tree mode, past
  // half of it the engine collects unreachable nodes whenever the nodes in
  // use have doubled since the last collection, and at the limit once more
  // before it gives up. Without a limit it never collects: a collection
  // marks every stored snapshot, which costs time and, when most nodes
  // belong to snapshots, frees little.
  void Every64kSteps() {
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
  // Tree mode: frees the clock nodes that neither a live clock nor a
  // stored snapshot reaches (ClockArena's collection). Without it every
  // node a goroutine shared (a release into a mutex) and then replaced
  // stayed allocated, though no snapshot kept it: memory grew with
  // operations, not with what is live and kept. Also measures what the
  // live clocks alone hold (HbStats::live_clock_bytes): when that passes the
  // limit, storing fewer snapshots cannot help.
  void Collect() {
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
      for (const std::vector<uint32_t>* snaps : {&hb_.snaps_.pre_ids(), &hb_.snaps_.post_ids()}) {
        for (uint32_t id : *snaps) {
          if (id != ClockStore::kUnknown) arena_->MarkRoot(id);
        }
      }
    }
    last_live_nodes_ = arena_->FinishCollect();
    ++hb_.stats_.collections;
    next_collect_ = std::max<uint64_t>(2 * last_live_nodes_, kMinCollectNodes);
  }
  // Collections wait until the nodes in use have doubled since the last one
  // (at least this many nodes: 600 KB), so their cost is linear overall.
  static constexpr uint64_t kMinCollectNodes = 1u << 12;
  uint64_t next_collect_ = kMinCollectNodes;
  // The collections of Every64kSteps when records go without snapshots,
  // from 2^20 nodes (150 MB) on: each one scans every record's snapshot
  // slots, so small arenas are not worth it.
  static constexpr uint64_t kMinDemandCollectNodes = 1u << 20;
  uint64_t next_demand_collect_ = kMinDemandCollectNodes;
  // Tree mode with records that get no snapshot: the snapshots stored so
  // far, while they are few (at most a quarter as many as records), so
  // that a collection marks them instead of scanning every record's two
  // snapshot slots. Then collections are cheap enough to run from fewer
  // nodes on (kMinListedCollectNodes, 77 MB): the arena stays small
  // (chan-heavy: most of a rendezvous's path copies are garbage by the
  // next one). Not much smaller: from 2^15 nodes on, chan-heavy/10000
  // collected at every check (its live clocks alone are 49,000 nodes),
  // and marking them took a tenth of its replay.
  static constexpr uint64_t kMinListedCollectNodes = 1u << 19;
  std::vector<uint32_t> stored_;
  bool listed_ = false;
  void Stored(uint32_t root) {
    if (!listed_) return;
    if (stored_.size() >= rs_.size() / 4) {
      listed_ = false;  // too many: scan the records' slots instead
      std::vector<uint32_t>().swap(stored_);
      next_demand_collect_ = std::max(next_demand_collect_, kMinDemandCollectNodes);
      return;
    }
    stored_.push_back(root);
  }
  uint64_t demand_backoff_ = 4;
  uint64_t snaps_taken_ = 0;  // tree_clock_collect_every's count
  uint64_t last_live_nodes_ = 0;  // nodes in use after the last collection
  bool Processed(uint32_t rec) const {
    const Gor& s = g_[trace::Value(ix_.GoroutineIndexOf(rec))];
    return s.cursor > rec || s.state == kDone;
  }
  void ParkOnRecord(uint32_t g, uint32_t rec) {
    Park(g);
    rec_waiters_[trace::Value(ix_.GoroutineIndexOf(rec))].push_back({rec, g, g_[g].token});
  }
  void ParkOnObject(uint32_t g, uint64_t key) {
    Park(g);
    obj_waiters_.push_back({key, g, g_[g].token});
  }
  void ParkRendezvous(uint32_t g) { Park(g); }
  void Park(uint32_t g) {
    Gor& s = g_[g];
    s.state = kParked;
    ++s.token;
    ++parked_count_;
    ++hb_.stats_.parked;
  }
  void Wake(uint32_t g, uint32_t token) {
    Gor& s = g_[g];
    if (s.state != kParked || s.token != token) return;
    s.state = kReady;
    --parked_count_;
    Push(g);
  }
  void WakeObject(uint64_t key);
  void AfterProgress(uint32_t g);
  void Finish(uint32_t g);

  // --- clocks
  uint32_t* Clk(uint32_t g) {
    Gor& s = g_[g];
    if (s.clock == kNoBlock) {
      s.clock = pool_.Alloc();
      if (store_.tracks_changes()) {
        s.R().changed.reserve(16);
        s.R().changed_bit.assign(width_, 0);
      }
    }
    return pool_.at(s.clock);
  }
  uint32_t CurSnap(uint32_t g);
  // The snapshot a record gets: none for the records HbOptions::unclocked
  // names (their goroutine's clock is not frozen for them, so they cost no
  // nodes), else CurSnap.
  uint32_t Snap(uint32_t g, uint32_t rec) {
    if (!Clocked(rec)) return ClockStore::kUnknown;
    return CurSnap(g);
  }
  void Acquire(uint32_t g, uint32_t block);
  void AcquireRow(uint32_t g, const uint32_t* src);
  // Goroutine g's entry in the clocks (HbOptions::read_goroutines), or
  // kNoBlock: g is not read and has no entry (its clock is still kept:
  // the other goroutines' entries it carries between objects).
  uint32_t Slot(uint32_t g) const { return slot_ == nullptr ? g : slot_[g]; }
  // Sets g's own entry.
  void SetOwn(uint32_t g, Epoch e) {
    g_[g].own = e;
    if (!tree_ && Slot(g) != kNoBlock) Clk(g)[Slot(g)] = e;
  }
  // What g's current clock knows of goroutine h != g (h has an entry: the
  // engine reads only the entries of WaitGroup adders, which it adds).
  Epoch LiveKnows(uint32_t g, uint32_t h) {
    const uint32_t k = Slot(h);
    if (k == kNoBlock) return 0;
    return LiveKnowsSlot(g, k);
  }
  // The same for entry k (not g's own).
  Epoch LiveKnowsSlot(uint32_t g, uint32_t k) {
    if (!tree_) return Clk(g)[k];
    const Gor& s = g_[g];
    const Epoch t = arena_->Get(s.tc.root, k);
    return s.ov == kNoBlock ? t : std::max(t, ovs_[s.ov].Get(k));
  }
  // Tree mode: what the clock (root, xs) knows of goroutine g (0 when g
  // has no entry).
  Epoch ViewKnows(uint32_t root, ClockArena::Extras xs, uint32_t g) const {
    const uint32_t k = Slot(g);
    if (k == kNoBlock) return 0;
    Epoch v = arena_->Get(root, k);
    for (uint32_t i = 0; i < xs.n; ++i) {
      if (xs.x[i].g == k) v = std::max(v, xs.x[i].e);
    }
    return v;
  }
  // The child starts with the parent's clock (spawn).
  void Inherit(uint32_t child, uint32_t parent);
  uint32_t TreeJoin(uint32_t g, ClockArena::Clock* src, ClockArena::Extras sx, Epoch src_knows_g);
  // Tree mode: a goroutine's clock is its tree, its overlay (entries of
  // other goroutines known beyond the tree, clock_overlay.h) and its own
  // entry. Overlays are allocated on first use and given back when the
  // goroutine ends.
  ClockOverlay& Ov(uint32_t g) {
    Gor& s = g_[g];
    if (s.ov == kNoBlock) {
      bool fresh;
      s.ov = ov_ids_.Take(&fresh);
      if (fresh) ovs_.emplace_back();
      ovs_[s.ov].Clear();
    }
    return ovs_[s.ov];
  }
  static constexpr uint32_t kMaxExtras = ClockOverlay::kCap + 1;
  // The entries g's clock knows beyond its tree (its overlay and own
  // entry) into out[0..kMaxExtras); returns how many.
  uint32_t GorExtras(uint32_t g, ClockArena::Extra* out) const {
    const Gor& s = g_[g];
    uint32_t n = 0;
    if (s.ov != kNoBlock) {
      const ClockOverlay& o = ovs_[s.ov];
      for (uint32_t k = 0; k < o.n; ++k) out[n++] = o.e[k];
    }
    if (Slot(g) != kNoBlock) out[n++] = {Slot(g), s.own};
    return n;
  }
  // Tree mode: the stamp of the nodes g's clock writes (tree_clock.h,
  // provenance; at least epoch 1, as changed_at). A goroutine without an
  // entry stamps nothing, as an object: provenance needs the clocks to
  // know the stamping goroutine's entry.
  uint64_t OwnStamp(uint32_t g) const {
    if (Slot(g) == kNoBlock) return 0;
    return ClockArena::Stamp(Slot(g), std::max<Epoch>(g_[g].own, 1));
  }
  // g's clock := max(it, entry k = e) (k != g's own entry); returns whether
  // it rose.
  bool RaiseEntry(uint32_t g, uint32_t k, Epoch e) {
    if (fold_now_) return arena_->SetMax(&g_[g].tc, k, e, OwnStamp(g));
    return OverlayRaise(arena_, &g_[g].tc, &Ov(g), k, e, OwnStamp(g));
  }
  // Tree mode: the record being replayed gets a snapshot, which folds the
  // overlay at its end: entries it raises go into the tree at once (as
  // many path copies, without the overlay's bookkeeping). Set by Begin;
  // either way the clocks are the same.
  bool fold_now_ = false;
  // Puts g's overlay into its tree (before the tree is shared whole).
  void FoldGor(uint32_t g) {
    Gor& s = g_[g];
    if (s.ov != kNoBlock && ovs_[s.ov].n != 0) FoldOverlay(arena_, &s.tc, &ovs_[s.ov], OwnStamp(g));
  }
  uint32_t NewBlock() { return tree_ ? objs_.Alloc() : pool_.Alloc(); }
  void FreeBlock(uint32_t b) {
    if (tree_) objs_.Free(b);
    else pool_.Free(b);
  }
  void Release(uint32_t g, uint32_t* block) {
    if (*block == kNoBlock) *block = NewBlock();
    if (tree_) {
      // The object takes g's tree and what g knows beyond it.
      Gor& s = g_[g];
      if (s.ov != kNoBlock && ovs_[s.ov].n + 1 > ClockOverlay::kCap) FoldGor(g);
      TreeObjPool::Obj& o = objs_.at(*block);
      arena_->Assign(&o.c, &s.tc);
      if (s.ov != kNoBlock && ovs_[s.ov].n != 0) {  // (its entries, not the whole array)
        const ClockOverlay& from = ovs_[s.ov];
        ClockOverlay& ov = objs_.Ov(&o);
        for (uint32_t k = 0; k < from.n; ++k) ov.e[k] = from.e[k];
        ov.n = from.n;
      } else {
        objs_.DropOv(&o);
      }
      o.pg = Slot(g);
      o.pe = s.own;
      o.plain = true;
      return;
    }
    std::memcpy(pool_.at(*block), Clk(g), size_t(width_) * 4);
  }
  void ReleaseJoin(uint32_t g, uint32_t* block) {
    if (*block == kNoBlock) *block = NewBlock();
    if (tree_) {
      TreeObjPool::Obj& o = objs_.at(*block);
      ClockArena::Extra gx[kMaxExtras], ox[kMaxExtras];
      const uint32_t n = GorExtras(g, gx), no = objs_.Extras(o, ox);
      arena_->Join(&o.c, {ox, no}, &g_[g].tc, {gx, n}, 0);
      // The last releaser's own entry joins the overlay; g's becomes it.
      const uint32_t self = Slot(g);
      const bool move_pg = o.pg != kNoBlock && self != kNoBlock && o.pg != self;
      if (move_pg || n > (self != kNoBlock ? 1u : 0u)) {
        ClockOverlay& ov = objs_.Ov(&o);
        if (move_pg) OverlayRaise(arena_, &o.c, &ov, o.pg, o.pe, 0);
        for (uint32_t k = 0; k < n; ++k) {
          if (gx[k].g != self) OverlayRaise(arena_, &o.c, &ov, gx[k].g, gx[k].e, 0);
        }
      }
      if (self != kNoBlock) {
        o.pe = o.pg == self ? std::max(o.pe, g_[g].own) : g_[g].own;
        o.pg = self;
      }
      o.plain = false;
      return;
    }
    uint32_t* __restrict d = pool_.at(*block);
    const uint32_t* __restrict s = Clk(g);
    const uint32_t w = width_;
    for (uint32_t i = 0; i < w; ++i) d[i] = std::max(d[i], s[i]);
  }

  // --- record bracketing
  uint32_t Pos(uint32_t g, uint32_t rec) const { return rec - g_[g].begin; }
  // Whether rec gets snapshots (not named by HbOptions::unclocked or
  // ::unneeded). The snapshot arrays start as kUnknown, so the records
  // that get none are not written: on traces where most records need no
  // clock, those writes (at a random place of two arrays per record) were
  // a good part of the replay's cache misses.
  bool Clocked(uint32_t rec) const { return unclocked_ == nullptr || !(*unclocked_)[rec]; }
  void Begin(uint32_t g, uint32_t rec) {
    SetOwn(g, PostEpochAt(Pos(g, rec)));
    fold_now_ = Clocked(rec);
    if (fold_now_) hb_.snaps_.SetPre(rec, CurSnap(g));
  }
  void End(uint32_t g, uint32_t rec);
  void Simple(uint32_t g, uint32_t rec) {
    Begin(g, rec);
    End(g, rec);
  }

  bool AssignSlots(std::string* err);

  // --- rules
  void ChanOp(uint32_t g, uint32_t own, uint32_t op);
  void Joint(uint32_t g, uint32_t a, uint32_t h, uint32_t b);
  void Lock(uint32_t g, uint32_t rec, ObjClass c, bool reader);
  void Unlock(uint32_t g, uint32_t rec, ObjClass c, bool reader);
  void DropLock(uint32_t g, uint64_t key, uint32_t holder);
  void OncePost(uint32_t g);
  void CondWait(uint32_t g, uint32_t rec);

  HappensBefore& hb_;
  const trace::Trace& t_;
  const std::vector<Record>& rs_;
  const OpIndex& ix_;
  ClockStore& store_ = hb_.store_;
  // The records that get no snapshot: HbOptions::unclocked, ::unneeded,
  // or both merged into merged_ (set up in Run).
  const RecordMask* unclocked_ = nullptr;
  RecordMask merged_;
  uint32_t width_ = 0;               // entries of a clock: the read goroutines
  const uint32_t* slot_ = nullptr;  // hb_.slot_
  ClockPool pool_;
  bool tree_ = false;               // wide trace: tree clocks
  ClockArena* arena_ = nullptr;     // store_.arena() in tree mode
  TreeObjPool objs_;                // tree mode: object clocks
  std::vector<ClockOverlay> ovs_;   // tree mode: goroutines' overlays (Gor::ov)
  IdRecycler ov_ids_;
  std::vector<Gor> g_;
  StampOrder stamps_;             // the stamp order (stamp_order.h)
  std::vector<uint64_t> order_;   // its current window
  size_t order_pos_ = 0;          // the walk's next candidate in order_
  uint64_t walked_ = 0;           // the last candidate the walk passed
  std::vector<uint64_t> late_;    // min-heap of candidates behind the walk
  std::vector<std::vector<RecWaiter>> rec_waiters_;
  std::vector<ObjWaiter> obj_waiters_;
  uint32_t parked_count_ = 0;
  bool force_ = false;
  uint32_t first_forced_ = kNoRecord;
  // Whether goroutines keep their lock stacks (Gor::Rare::locks): only
  // Cond.Wait reads them, so a trace without one keeps none (a Lock and
  // Unlock then touch no rare state: two cache misses fewer per pair at
  // 10,000 goroutines).
  bool track_locks_ = false;
  std::vector<Chan> chans_;
  std::vector<Mutex> mutexes_[2];  // Mutex, RWMutex
  std::vector<Wg> wgs_;
  std::vector<Once> onces_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> sig_clock_;  // signal rec -> (block, waiters left)
  uint32_t test_clock_ = kNoBlock;
};

// ---------------------------------------------------------------------------
// Scheduling

// The stamp at which the next event of g happened: tpost for a completed
// record (that is when its acquire took effect), tpre for a record that never
// completed and for the pre steps of Once.Do (f runs between pre and post,
// recorded as the records that follow it) and Cond.Wait (it releases its
// mutex at pre). A due Once.Do post comes first.
uint32_t Builder::HeadKey(uint32_t g) const {
  const Gor& s = g_[g];
  if (OncePostDue(s)) return rs_[s.rare->once_stack.back()].tpost;
  if (s.cursor >= s.end) return 0;
  const Record& r = rs_[s.cursor];
  if (r.tpost == 0) return r.tpre;
  if (r.kind == Kind::OnceDo && (r.flags & trace::kSuccess)) return r.tpre;
  if (r.kind == Kind::CondWait && !s.pre_done) return r.tpre;
  return r.tpost;
}

bool Builder::Front(uint64_t* out) {
  for (;;) {
    if (order_pos_ == order_.size() && stamps_.Next(&order_)) order_pos_ = 0;
    const uint64_t a = order_pos_ < order_.size() ? order_[order_pos_] : ~0ull;
    const uint64_t h = late_.empty() ? ~0ull : late_.front();
    if (a == ~0ull && h == ~0ull) {
      // Nothing left to walk. A ready goroutine would have been met by the
      // walk or pushed (Push); should one have been missed all the same,
      // it is taken up here rather than left unreplayed.
      for (uint32_t g = 0; g < g_.size(); ++g) {
        if (g_[g].state == kReady) late_.push_back(Candidate(HeadKey(g), g));
      }
      if (late_.empty()) return false;
      std::make_heap(late_.begin(), late_.end(), std::greater<uint64_t>());
      continue;
    }
    const uint64_t v = a < h ? a : h;
    if (Valid(v)) {
      *out = v;
      return true;
    }
    if (a < h) {
      Advance();
    } else {
      std::pop_heap(late_.begin(), late_.end(), std::greater<uint64_t>());
      late_.pop_back();
    }
    // A ready goroutine whose step moved since (a rendezvous partner
    // completed with it): its current step is ahead of the walk, or goes
    // behind it into the heap.
    if (g_[uint32_t(v)].state == kReady) Push(uint32_t(v));
  }
}

void Builder::WakeObject(uint64_t key) {
  for (size_t k = 0; k < obj_waiters_.size();) {
    ObjWaiter w = obj_waiters_[k];
    bool stale = g_[w.g].state != kParked || g_[w.g].token != w.token;
    if (stale || w.key == key) {
      obj_waiters_[k] = obj_waiters_.back();
      obj_waiters_.pop_back();
      if (!stale) Wake(w.g, w.token);
    } else {
      ++k;
    }
  }
}

void Builder::AfterProgress(uint32_t g) {
  Gor& s = g_[g];
  auto& ws = rec_waiters_[g];
  for (size_t k = 0; k < ws.size();) {
    if (s.cursor > ws[k].rec) {
      RecWaiter w = ws[k];
      ws[k] = ws.back();
      ws.pop_back();
      Wake(w.g, w.token);
    } else {
      ++k;
    }
  }
  if (s.cursor >= s.end && !OncePostDue(s)) Finish(g);
}

void Builder::Finish(uint32_t g) {
  Gor& s = g_[g];
  if (s.state == kDone) return;
  if (s.state == kParked) --parked_count_;
  s.state = kDone;
  ++s.token;
  if (s.clock != kNoBlock) pool_.Free(s.clock);
  s.clock = kNoBlock;
  if (tree_) arena_->Clear(&s.tc);
  if (s.ov != kNoBlock) ov_ids_.Give(s.ov);
  s.ov = kNoBlock;
  s.rare.reset();
  auto& ws = rec_waiters_[g];
  for (const RecWaiter& w : std::vector<RecWaiter>(std::move(ws))) Wake(w.g, w.token);
  ws.clear();
}

// ---------------------------------------------------------------------------
// Clocks

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

void Builder::End(uint32_t g, uint32_t rec) {
  Gor& s = g_[g];
  const bool clocked = Clocked(rec);
  const uint32_t snap = clocked ? CurSnap(g) : ClockStore::kUnknown;
  if (clocked) hb_.snaps_.SetPost(rec, snap);
  uint32_t next = rec + 1;
  if (rs_[rec].kind == Kind::Select) {
    uint32_t last = std::min<uint32_t>(s.end, rec + 1 + rs_[rec].aux);
    while (next < last && rs_[next].kind == Kind::SelectCase) {
      if (clocked) {
        hb_.snaps_.SetPre(next, hb_.snaps_.Pre(rec));
        hb_.snaps_.SetPost(next, snap);
      }
      ++next;
    }
  }
  s.cursor = next;
  s.pre_done = false;
  AfterProgress(g);
}

// ---------------------------------------------------------------------------
// Channels

// Rule (Sync), Sulzmann and Stadtmüller §3.3: an unbuffered send and the
// receive that got its value (same channel, same value sequence number)
// complete together: both post clocks are max(inc(pre_s), inc(pre_r)). Each side's pre clock stays
// unaware of the other, which is what makes partners "concurrent".
void Builder::Joint(uint32_t g, uint32_t a, uint32_t h, uint32_t b) {
  Begin(g, a);
  Begin(h, b);
  if (tree_) {
    // Both become max(x, y) with both own entries: g's clock is built (the
    // partner's own entry in its overlay), h takes its tree and overlay
    // with g's own entry in place of its own. Neither tree changes unless
    // g's overlay is full; then its fold is made once, in the shared tree.
    Gor& sg = g_[g];
    Gor& sh = g_[h];
    ClockArena::Extra gx[kMaxExtras], hx[kMaxExtras];
    const uint32_t ng = GorExtras(g, gx), nh = GorExtras(h, hx);
    if (Slot(h) != kNoBlock && ViewKnows(sg.tc.root, {gx, ng}, h) >= sh.changed_at) {
      // g's clock includes h's (TreeJoin's shortcut, the other way round).
      RaiseEntry(g, Slot(h), sh.own);
    } else {
      TreeJoin(g, &sh.tc, {hx, nh}, ViewKnows(sh.tc.root, {hx, nh}, g));
    }
    ClockOverlay* og = sg.ov == kNoBlock ? nullptr : &ovs_[sg.ov];
    const uint32_t kept = og == nullptr ? 0 : og->n - (og->Get(Slot(h)) != 0 ? 1 : 0);
    // When either record gets a snapshot, both clocks go into one tree
    // now, g's own entry too: the two snapshots then share it, where two
    // overlays folded apart at End would copy the paths twice (every
    // clock: 20% slower and a quarter more nodes on chan-heavy/10000).
    const bool snapped = Clocked(a) || Clocked(b);
    if (og != nullptr && (snapped || kept + (Slot(g) != kNoBlock) > ClockOverlay::kCap)) FoldGor(g);
    if (snapped && Slot(g) != kNoBlock) arena_->SetMax(&sg.tc, Slot(g), sg.own, OwnStamp(g));
    if (sh.tc.root != sg.tc.root) arena_->Assign(&sh.tc, &sg.tc);
    else arena_->Freeze(&sg.tc);
    if (snapped) {
      if (sh.ov != kNoBlock) ovs_[sh.ov].Clear();
    } else if (sg.ov != kNoBlock || Slot(g) != kNoBlock) {
      ClockOverlay& oh = Ov(h);  // (may move ovs_)
      if (sg.ov != kNoBlock) oh = ovs_[sg.ov];
      else oh.Clear();
      if (Slot(h) != kNoBlock) oh.Remove(Slot(h));
      if (Slot(g) != kNoBlock) oh.Put(Slot(g), sg.own);
    } else if (sh.ov != kNoBlock) {
      ovs_[sh.ov].Clear();
    }
    for (Gor* x : {&sg, &sh}) {
      x->dirty = true;
      x->changed_at = std::max<Epoch>(x->own, 1);
    }
    End(g, a);
    End(h, b);
    Wake(h, g_[h].token);
    return;
  }
  uint32_t* __restrict x = Clk(g);
  uint32_t* __restrict y = Clk(h);
  Gor& sg = g_[g];
  Gor& sh = g_[h];
  const uint32_t w = width_;
  if (!store_.tracks_changes()) {
    bool cx, cy;
    JoinBoth(x, y, w, &cx, &cy);
    sg.dirty |= cx;
    sh.dirty |= cy;
  } else {
    for (uint32_t i = 0; i < w; ++i) {
      if (x[i] < y[i]) {
        x[i] = y[i];
        sg.dirty = true;
        if (!sg.rare->changed_bit[i]) { sg.rare->changed_bit[i] = 1; sg.rare->changed.push_back(i); }
      } else if (y[i] < x[i]) {
        y[i] = x[i];
        sh.dirty = true;
        if (!sh.rare->changed_bit[i]) { sh.rare->changed_bit[i] = 1; sh.rare->changed.push_back(i); }
      }
    }
  }
  End(g, a);
  End(h, b);
  Wake(h, g_[h].token);
}

// One channel operation: a ChanSend/ChanRecv record, or the chosen case
// `op` of the Select `own`.
void Builder::ChanOp(uint32_t g, uint32_t own, uint32_t op) {
  const Record& r = rs_[op];
  uint32_t c = ix_.ObjectOf(op);
  ChanDir dir = DirOf(r);
  if (rs_[own].tpost == 0 || c == kNoObject || (dir != ChanDir::Send && dir != ChanDir::Recv)) {
    // Blocked, nil channel or malformed: the operation ticks the clock only.
    Simple(g, own);
    return;
  }
  const ChannelInfo& ci = ix_.Channel(c);
  Chan& ch = chans_[c];

  // Rule (Receive-Closed) and its mirror for sends: close(x) happens before
  // a receive that returned the zero value because x was closed, and before
  // a send that panicked on it.
  if (r.flags & trace::kClosed) {
    if (ci.close_rec != kNoRecord && !Processed(ci.close_rec) && !force_) {
      ParkOnRecord(g, ci.close_rec);
      return;
    }
    Begin(g, own);
    Acquire(g, ch.close_clock);
    End(g, own);
    return;
  }
  if (r.val == 0) {  // no value number: nothing to tie it to
    Simple(g, own);
    return;
  }

  if (ci.capacity <= 0) {
    uint32_t p = dir == ChanDir::Send ? ix_.RecvOf(c, r.val) : ix_.SendOf(c, r.val);
    if (p == kNoRecord) {  // partner not recorded (e.g. a runtime timer)
      Simple(g, own);
      return;
    }
    uint32_t po = ix_.Owner(p);
    uint32_t h = trace::Value(ix_.GoroutineIndexOf(po));
    if (rs_[po].tpost == 0 || h == g) {
      Simple(g, own);
      return;
    }
    Gor& sh = g_[h];
    if (sh.state != kDone && sh.cursor == po && !OncePostDue(sh)) {
      Joint(g, own, h, po);
      return;
    }
    if (sh.state == kDone || sh.cursor > po || force_) {
      Simple(g, own);  // the partner was replayed alone (inconsistent trace)
      return;
    }
    ParkRendezvous(g);  // the partner's goroutine completes the pair
    return;
  }

  // Rules (Send) and (Receive), Sulzmann and Stadtmüller §3.4: a buffered
  // channel of capacity k is k slots, each carrying a clock. Value v uses slot
  // (v-1) mod k. The send of v waits for the receive of v-k (the slot's
  // previous value) and acquires the slot's clock, which that receive left
  // there; it then leaves its own clock in the slot. The receive of v
  // acquires the slot's clock (the send's) and leaves its own for the send
  // of v+k. So the i-th receive happens after the i-th send, and the
  // (i+k)-th send after the i-th receive.
  uint64_t cap = uint64_t(ci.capacity);
  uint32_t dep = dir == ChanDir::Send
                     ? (r.val > cap ? ix_.RecvOf(c, r.val - uint32_t(cap)) : kNoRecord)
                     : ix_.SendOf(c, r.val);
  if (dep != kNoRecord) {
    uint32_t dep_own = ix_.Owner(dep);
    if (rs_[dep_own].tpost != 0 && !Processed(dep_own) && !force_) {
      ParkOnRecord(g, dep_own);
      return;
    }
  }
  if (ch.ring.empty()) {
    ch.ring.assign(std::max<uint64_t>(1, std::min<uint64_t>(cap, ci.values)), kNoBlock);
  }
  uint32_t& slot = ch.ring[(r.val - 1) % cap % ch.ring.size()];
  Begin(g, own);
  Acquire(g, slot);
  Release(g, &slot);
  End(g, own);
}

// ---------------------------------------------------------------------------
// Mutex and RWMutex

void Builder::DropLock(uint32_t g, uint64_t key, uint32_t holder) {
  auto drop = [key](std::vector<uint64_t>& v) {
    for (size_t k = v.size(); k-- > 0;) {
      if (v[k] == key) {
        v.erase(v.begin() + k);
        return true;
      }
    }
    return false;
  };
  auto locks_of = [this](uint32_t h) -> std::vector<uint64_t>* {
    return g_[h].rare ? &g_[h].rare->locks : nullptr;
  };
  std::vector<uint64_t>* mine = locks_of(g);
  if (!(mine && drop(*mine)) && holder != 0) {
    if (std::vector<uint64_t>* theirs = locks_of(holder - 1)) drop(*theirs);
  }
}

// Lock (write) waits until the mutex is free in the replay; it acquires the
// last writer's unlock clock (unlock -> next lock) and, for an RWMutex, the
// join of the reader unlocks since (readers -> next writer). RLock waits
// until no writer holds it and acquires the last writer's unlock clock only
// (readers do not order each other).
void Builder::Lock(uint32_t g, uint32_t rec, ObjClass c, bool reader) {
  const Record& r = rs_[rec];
  bool is_try = r.kind == Kind::MutexTryLock || r.kind == Kind::RWTryLock ||
                r.kind == Kind::RWTryRLock;
  uint32_t d = ix_.ObjectOf(rec);
  if (r.tpost == 0 || d == kNoObject || (is_try && !(r.flags & trace::kSuccess))) {
    Simple(g, rec);  // blocked, or a failed TryLock: no synchronisation
    return;
  }
  Mutex& m = mutexes_[c == ObjClass::RWMutex][d];
  bool busy = reader ? m.writer != 0 : (m.writer != 0 || m.readers > 0);
  uint64_t key = ObjKey(c, d);
  if (busy && !force_) {
    ParkOnObject(g, key);
    return;
  }
  Begin(g, rec);
  if (hb_.opt_.mutex_edges) {
    Acquire(g, m.relw);
    if (!reader) Acquire(g, m.relr);
  }
  if (reader) {
    ++m.readers;
  } else {
    m.writer = g + 1;
    if (track_locks_) g_[g].R().locks.push_back(key);
  }
  End(g, rec);
}

// Unlock releases the goroutine's clock into the mutex (the writer clock is
// replaced: the unlocker's clock already includes every earlier release);
// RUnlock joins into the readers' clock.
void Builder::Unlock(uint32_t g, uint32_t rec, ObjClass c, bool reader) {
  const Record& r = rs_[rec];
  uint32_t d = ix_.ObjectOf(rec);
  if ((r.flags & trace::kFailed) || d == kNoObject) {
    Simple(g, rec);  // a fatal "unlock of unlocked": nothing was released
    return;
  }
  Mutex& m = mutexes_[c == ObjClass::RWMutex][d];
  uint64_t key = ObjKey(c, d);
  Begin(g, rec);
  if (reader) {
    if (m.readers > 0) --m.readers;
    ReleaseJoin(g, &m.relr);
  } else {
    if (track_locks_) DropLock(g, key, m.writer);
    m.writer = 0;
    Release(g, &m.relw);
  }
  End(g, rec);
  WakeObject(key);
}

// ---------------------------------------------------------------------------
// Once and Cond

// Once: the Do that ran f releases at its post, after f's body (the records
// that follow it in its goroutine up to its tpost); every other Do acquires
// that clock. The post's own epoch is the last body record's post epoch.
void Builder::OncePost(uint32_t g) {
  Gor& s = g_[g];
  uint32_t rec = s.rare->once_stack.back();
  s.rare->once_stack.pop_back();
  s.in_once = !s.rare->once_stack.empty();
  Epoch e = PostEpochAt(s.cursor - 1 - s.begin);
  SetOwn(g, e);
  hb_.snaps_.SetPost(rec, Snap(g, rec));
  hb_.once_post_.push_back({rec, e});
  uint32_t d = ix_.ObjectOf(rec);
  if (d != kNoObject) {
    Release(g, &onces_[d].clock);
    onces_[d].done = true;
    WakeObject(ObjKey(ObjClass::Once, d));
  }
  AfterProgress(g);
}

// Cond.Wait: pre step (at tpre) releases the mutex the goroutine holds
// innermost (Wait unlocks c.L; the recorder does not see that unlock, so
// the engine assumes c.L is the most recently locked mutex still held). Post
// step (at tpost): the Signal/Broadcast whose count woke it happens before
// it (exact partner), and it re-acquires that mutex.
void Builder::CondWait(uint32_t g, uint32_t rec) {
  Gor& s = g_[g];
  const Record& r = rs_[rec];
  if (!s.pre_done) {
    SetOwn(g, PreEpochAt(Pos(g, rec)));
    hb_.snaps_.SetPre(rec, Snap(g, rec));
    s.R().cond_mutex = ~0ull;
    if (!s.rare->locks.empty()) {
      uint64_t key = s.rare->locks.back();
      s.rare->locks.pop_back();
      Mutex& m = mutexes_[(key >> 32) == uint64_t(ObjClass::RWMutex)][uint32_t(key)];
      m.writer = 0;
      Release(g, &m.relw);
      s.rare->cond_mutex = key;
      WakeObject(key);
    }
    if (r.tpost == 0) {  // never woken
      hb_.snaps_.SetPost(rec, hb_.snaps_.Pre(rec));
      s.cursor = rec + 1;
      AfterProgress(g);
      return;
    }
    s.pre_done = true;
    return;
  }
  uint32_t sig = ix_.SignalOf(rec);
  if (sig != kNoRecord && !Processed(sig) && !force_) {
    ParkOnRecord(g, sig);
    return;
  }
  Mutex* m = nullptr;
  const uint64_t cond_mutex = s.rare ? s.rare->cond_mutex : ~0ull;
  if (cond_mutex != ~0ull) {
    m = &mutexes_[(cond_mutex >> 32) == uint64_t(ObjClass::RWMutex)][uint32_t(cond_mutex)];
    if ((m->writer != 0 || m->readers > 0) && !force_) {
      ParkOnObject(g, cond_mutex);
      return;
    }
  }
  SetOwn(g, PostEpochAt(Pos(g, rec)));
  if (sig != kNoRecord) {
    auto it = sig_clock_.find(sig);
    if (it != sig_clock_.end()) {
      Acquire(g, it->second.first);
      if (--it->second.second == 0) {
        FreeBlock(it->second.first);
        sig_clock_.erase(it);
      }
    }
  }
  if (m) {
    if (hb_.opt_.mutex_edges) {
      Acquire(g, m->relw);
      Acquire(g, m->relr);
    }
    m->writer = g + 1;
    s.R().locks.push_back(cond_mutex);
  }
  End(g, rec);
}

// ---------------------------------------------------------------------------
// One event

void Builder::Step(uint32_t g) {
  if ((++steps_ & 0xffff) == 0) Every64kSteps();
  if (internal::tree_clock_collect_every != 0 && tree_ &&
      steps_ % internal::tree_clock_collect_every == 0) {
    Collect();
  }
  Gor& s = g_[g];
  if (OncePostDue(s)) {
    OncePost(g);
    return;
  }
  if (s.cursor >= s.end) {
    Finish(g);
    return;
  }
  const uint32_t i = s.cursor;
  const Record& r = rs_[i];
  switch (r.kind) {
    case Kind::GoSpawn: {
      // Rule (Signal/Wait): the child starts with the parent's clock at the
      // spawn. The child has not run yet, so its clock is initialised here
      // and its first record only waits for this one.
      Begin(g, i);
      uint32_t child = r.obj - 1;
      if (r.obj >= 1 && child < g_.size() && child != g && g_[child].cursor == g_[child].begin &&
          g_[child].state != kDone) {
        Inherit(child, g);
      }
      End(g, i);
      return;
    }
    case Kind::GoStart: {
      uint32_t sp = trace::Value(ix_.SpawnOfIndex(GoroutineIndex(g)));
      if (sp != kNoRecord && !Processed(sp) && !force_) {
        ParkOnRecord(g, sp);
        return;
      }
      Simple(g, i);
      return;
    }
    case Kind::ChanSend:
    case Kind::ChanRecv:
      ChanOp(g, i, i);
      return;
    case Kind::Select: {
      // Rule (Default) and select: a default or blocked select only ticks;
      // a chosen case is that channel operation, with the select's clocks.
      uint32_t k = ix_.ChosenCase(i);
      if (k == kNoRecord) Simple(g, i);
      else ChanOp(g, i, k);
      return;
    }
    case Kind::ChanClose: {
      // Rule (Close): close releases the goroutine's clock to the channel
      // (for receives that observe it closed). A close that panicked
      // (already closed) happened after the first close.
      uint32_t c = ix_.ObjectOf(i);
      if (c == kNoObject) {
        Simple(g, i);
        return;
      }
      if (r.flags & trace::kClosed) {
        uint32_t first = ix_.Channel(c).close_rec;
        if (first != kNoRecord && first != i && !Processed(first) && !force_) {
          ParkOnRecord(g, first);
          return;
        }
        Begin(g, i);
        Acquire(g, chans_[c].close_clock);
        End(g, i);
        return;
      }
      Begin(g, i);
      if (ix_.Channel(c).close_rec == i) Release(g, &chans_[c].close_clock);
      End(g, i);
      return;
    }
    case Kind::MutexLock:
    case Kind::MutexTryLock:
      Lock(g, i, ObjClass::Mutex, false);
      return;
    case Kind::RWLock:
    case Kind::RWTryLock:
      Lock(g, i, ObjClass::RWMutex, false);
      return;
    case Kind::RLock:
    case Kind::RWTryRLock:
      Lock(g, i, ObjClass::RWMutex, true);
      return;
    case Kind::MutexUnlock:
      Unlock(g, i, ObjClass::Mutex, false);
      return;
    case Kind::RWUnlock:
      Unlock(g, i, ObjClass::RWMutex, false);
      return;
    case Kind::RUnlock:
      Unlock(g, i, ObjClass::RWMutex, true);
      return;
    case Kind::WgAdd: {
      // WaitGroup: every Add and Done releases into the group's clock; the
      // counter is replayed so that a Wait is replayed only once it is 0.
      uint32_t d = ix_.ObjectOf(i);
      if (d == kNoObject) {
        Simple(g, i);
        return;
      }
      Begin(g, i);
      Wg& w = wgs_[d];
      w.counter += int32_t(r.val);
      ReleaseJoin(g, &w.clock);
      if (int32_t(r.val) > 0) {
        Epoch e = PostEpochAt(Pos(g, i));
        auto it = std::find_if(w.adders.begin(), w.adders.end(),
                               [g](const auto& a) { return a.first == g; });
        if (it != w.adders.end()) it->second = e;
        else w.adders.push_back({g, e});
      }
      End(g, i);
      if (wgs_[d].counter <= 0) WakeObject(ObjKey(ObjClass::WaitGroup, d));
      return;
    }
    case Kind::WgWait: {
      // A Wait that returned saw the counter at 0: every Add/Done replayed
      // so far happens before it, provided every Add replayed so far already
      // happens before the Wait by other edges (Go requires Adds that start a
      // round to happen before Wait). If some Add does not (wg.Add inside the
      // spawned goroutine), another schedule runs the Wait before that Add,
      // where it returns early: then no Done is forced before the Wait and
      // the rule adds no edge. Add/Done take their stamp before acting,
      // so they are replayed before the Wait they let return; a Wait that
      // started with a non-zero counter (val) is also held back until the
      // replayed counter is 0. One that started at 0 is not: an Add stamped
      // just before it but acting after it must not order the Wait after
      // that Add's Done.
      uint32_t d = ix_.ObjectOf(i);
      if (r.tpost == 0 || d == kNoObject) {
        Simple(g, i);
        return;
      }
      if (r.val != 0 && wgs_[d].counter > 0 && !force_) {
        ParkOnObject(g, ObjKey(ObjClass::WaitGroup, d));
        return;
      }
      Begin(g, i);
      bool ordered = true;
      for (const auto& [h, e] : wgs_[d].adders) {
        if (h != g && LiveKnows(g, h) < e) ordered = false;
      }
      if (ordered) Acquire(g, wgs_[d].clock);
      End(g, i);
      return;
    }
    case Kind::OnceDo: {
      uint32_t d = ix_.ObjectOf(i);
      if (r.flags & trace::kSuccess) {
        // Pre step of the Do that runs f; the post is OncePost.
        Begin(g, i);
        hb_.snaps_.SetPost(i, hb_.snaps_.Pre(i));
        s.R().once_stack.push_back(i);
        s.in_once = true;
        s.cursor = i + 1;
        AfterProgress(g);
        return;
      }
      if (r.tpost == 0 || d == kNoObject) {
        Simple(g, i);
        return;
      }
      uint32_t run = ix_.OnceRunner(d);
      if (run != kNoRecord && rs_[run].tpost != 0 && !onces_[d].done && !force_) {
        ParkOnObject(g, ObjKey(ObjClass::Once, d));
        return;
      }
      Begin(g, i);
      Acquire(g, onces_[d].clock);
      End(g, i);
      return;
    }
    case Kind::CondWait:
      CondWait(g, i);
      return;
    case Kind::CondSignal:
    case Kind::CondBroadcast: {
      // Signal/Broadcast releases to the waits it woke (their val is its
      // count); the clock is kept until each of them has acquired it.
      Begin(g, i);
      uint32_t n = ix_.WaitersOf(i);
      if (n > 0) {
        uint32_t b = kNoBlock;
        Release(g, &b);
        sig_clock_[i] = {b, n};
      }
      End(g, i);
      return;
    }
    case Kind::TestStart:
      // go test runs top-level tests one after the other: the end of each
      // happens before the start of the next (parallel tests excepted).
      Begin(g, i);
      if (hb_.opt_.test_order) Acquire(g, test_clock_);
      End(g, i);
      return;
    case Kind::TestEnd:
      Begin(g, i);
      if (hb_.opt_.test_order) ReleaseJoin(g, &test_clock_);
      End(g, i);
      return;
    default:
      Simple(g, i);
      return;
  }
}

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

bool Builder::Run(std::string* err) {
  const uint32_t n = static_cast<uint32_t>(rs_.size());
  const uint32_t ng = static_cast<uint32_t>(t_.goroutines.size());
  hb_.num_g_ = ng;
  for (uint32_t g = 0; g < ng; ++g) {
    const auto& gr = t_.goroutines[g];
    if (gr.begin > gr.end || gr.end > n) {
      *err = fmt::format("goroutine {} has records [{}, {}) outside the trace's {} records",
                         gr.gid, gr.begin, gr.end, n);
      return false;
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (ix_.GoroutineIndexOf(i) == trace::kNoGoroutine) {
      *err = fmt::format("record {} belongs to no goroutine", i);
      return false;
    }
    track_locks_ |= rs_[i].kind == Kind::CondWait;
  }

  {
    const auto& a = hb_.opt_.unclocked;
    const auto& b = hb_.opt_.unneeded;
    for (const auto* mask : {a.get(), b.get()}) {
      if (mask != nullptr && !mask->empty() && mask->size() != n) {
        *err = fmt::format("the unclocked-record mask has {} entries for {} records",
                           mask->size(), n);
        return false;
      }
    }
    const bool has_a = a != nullptr && !a->empty(), has_b = b != nullptr && !b->empty();
    if (has_a && has_b) {
      merged_ = *a;
      merged_.Or(*b);
      unclocked_ = &merged_;
    } else if (has_a || has_b) {
      unclocked_ = has_a ? a.get() : b.get();
    }
  }
  if (!AssignSlots(err)) return false;
  pool_.Init(width_);
  tree_ = width_ >= internal::tree_clock_min_width;
  if (tree_) {
    store_.InitTree(width_, hb_.opt_.clock_budget_bytes);
    arena_ = &store_.arena();
    objs_.Init(arena_);
    if (unclocked_ != nullptr) {
      listed_ = true;
      next_demand_collect_ = kMinListedCollectNodes;
    }
  } else {
    store_.Init(width_, hb_.opt_.clock_budget_bytes, uint64_t(n) + ng + 16);
  }
  hb_.snaps_.Init(n, unclocked_);
  hb_.gbegin_.resize(ng);
  chans_.assign(ix_.Count(ObjClass::Chan), Chan{});
  mutexes_[0].assign(ix_.Count(ObjClass::Mutex), Mutex{});
  mutexes_[1].assign(ix_.Count(ObjClass::RWMutex), Mutex{});
  wgs_.assign(ix_.Count(ObjClass::WaitGroup), Wg{});
  onces_.assign(ix_.Count(ObjClass::Once), Once{});
  g_.clear();
  g_.resize(ng);
  rec_waiters_.assign(ng, {});
  for (uint32_t g = 0; g < ng; ++g) {
    Gor& s = g_[g];
    if (tree_) s.tc = arena_->NewClock();
    s.begin = s.cursor = t_.goroutines[g].begin;
    s.end = t_.goroutines[g].end;
    hb_.gbegin_[g] = s.begin;
    s.state = s.begin < s.end ? kReady : kDone;
  }
  // Every ready goroutine's first step is in the stamp order, ahead of the
  // walk: none needs a heap entry.
  stamps_.Init(t_, internal::stamp_window_steps);
  stamps_.Next(&order_);

  for (;;) {
    if (steps_ < hb_.opt_.stop_if_exhausted_before && store_.exhausted()) {
      hb_.stats_.over_limit = true;
      hb_.stats_.steps = steps_;
      *err = fmt::format("its snapshots passed the clock budget ({} MB) after {} of {} steps",
                         hb_.opt_.clock_budget_bytes >> 20, steps_, n);
      return false;
    }
    if (hb_.stats_.over_limit) {
      *err = fmt::format("its clocks passed the memory limit ({} MB) after {} of {} steps",
                         hb_.opt_.memory_limit_bytes >> 20, steps_, n);
      return false;
    }
    uint32_t g;
    uint64_t front;
    if (!Front(&front)) {
      if (parked_count_ == 0) break;
      // Every remaining goroutine waits for something that will not be
      // replayed: force the parked event with the smallest stamp.
      uint32_t best = kNoObject;
      uint32_t best_key = 0;
      for (uint32_t h = 0; h < ng; ++h) {
        if (g_[h].state != kParked) continue;
        uint32_t k = HeadKey(h);
        if (best == kNoObject || k < best_key) {
          best = h;
          best_key = k;
        }
      }
      if (best == kNoObject) break;  // bookkeeping slip: nothing left to force
      g = best;
      g_[g].state = kReady;
      ++g_[g].token;
      --parked_count_;
      if (first_forced_ == kNoRecord && g_[g].cursor < g_[g].end) first_forced_ = g_[g].cursor;
      ++hb_.stats_.forced;
      force_ = true;
      Step(g);
      force_ = false;
    } else {
      TakeFront(front);
      g = uint32_t(front);
      Step(g);
    }
    // Run ahead while g's next event is still the earliest.
    while (g_[g].state == kReady && !hb_.stats_.over_limit &&
           (!Front(&front) || HeadKey(g) <= uint32_t(front >> 32))) {
      Step(g);
    }
    if (g_[g].state == kReady) Push(g);
  }

  // Collections on demand wait for 2^19 nodes (kMinListedCollectNodes), so
  // a replay can end with most of its nodes garbage; what it reports as in
  // use (HbStats::engine_bytes, charged to the analysis's memory budget)
  // should be what its clocks and snapshots hold, as when collections ran
  // from 2^15 nodes on. One mark, at most a few ms.
  if (tree_ && unclocked_ != nullptr && arena_->nodes_in_use() >= kMinCollectNodes &&
      arena_->nodes_in_use() > 2 * last_live_nodes_) {
    Collect();
  }
  std::sort(hb_.once_post_.begin(), hb_.once_post_.end());
  if (hb_.stats_.forced > 0) {
    const Record& r = rs_[first_forced_ == kNoRecord ? 0 : first_forced_];
    hb_.warnings_.push_back(fmt::format(
        "{} event(s) were replayed without the event they depend on (first: "
        "record {} kind {} at stamp {}); the trace is inconsistent or cut short, "
        "and orderings around them may be missing",
        hb_.stats_.forced, first_forced_, int(r.kind), r.tpost ? r.tpost : r.tpre));
  }
  if (store_.exhausted()) {
    hb_.warnings_.push_back(fmt::format(
        "the clock budget ({} MB) was exhausted; records replayed after that are "
        "treated as ordered with everything, so findings about them may be missed",
        hb_.opt_.clock_budget_bytes >> 20));
  }
  hb_.stats_.records = n;
  hb_.stats_.goroutines = ng;
  hb_.stats_.snapshots = store_.snapshots();
  hb_.stats_.clock_bytes = store_.bytes();
  hb_.stats_.index_bytes = ix_.MemoryBytes() + uint64_t(n) * 8 + pool_.bytes() + objs_.bytes() +
                          stored_.capacity() * 4;
  // What the clocks hold at the end (the arena's chunks may be larger: a
  // collection leaves room in them that later nodes reuse).
  hb_.stats_.engine_bytes = ClockBytesInUse();
  return true;
}

// ---------------------------------------------------------------------------

bool HappensBefore::Build(const trace::Trace& t, std::string* err) {
  auto t0 = std::chrono::steady_clock::now();
  t_ = &t;
  warnings_.clear();
  once_post_.clear();
  stats_ = HbStats{};
  IndexTrace(t);
  Builder b(this, t);
  if (!b.Run(err)) return false;
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

}  // namespace gordian::hb
