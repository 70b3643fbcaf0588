// This file defines Builder, the clock builder of the happens-before
// engine (internal to hb): the walk over the thread-local traces, in stamp
// order, that gives every record its pre and post vector clocks, with the
// clock pools and kernels its rules share. Its parts are split by concern,
// as a race detector's runtime is: the walk and the record families it
// dispatches (clock_builder.cc), channels (clock_builder_channels.cc),
// mutexes (clock_builder_locks.cc), Once, Cond and WaitGroup
// (clock_builder_sync.cc), and the clocks themselves: snapshots, joins,
// collection, slot assignment (clock_builder_clocks.cc). The small helpers
// the rules share (Begin, Release, Clk, the pools, ...) are inline here;
// what the rules call out of line (End, CurSnap, Acquire, HeadKey, ...)
// the compiler called out of line when all of it was one file as well, so
// the split adds no call to a record's replay but Step's one to the rule
// of a family whose code was inside Step (WaitGroup, Once, close, ...).
//
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
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gordian/hb/happens_before.h"

#include "gordian/hb/clock_overlay.h"
#include "gordian/hb/id_recycler.h"
#include "gordian/hb/stamp_order.h"

namespace gordian::hb {

using trace::Kind;
using trace::Record;

inline constexpr uint32_t kNoBlock = 0xffffffffu;

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
// Each file that includes this one gets its own copies (an unnamed
// namespace: one resolver per file, as when they were all in one file);
// only out-of-line rules call them (AcquireRow, Joint).
namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GORDIAN_CLOCK_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define GORDIAN_CLOCK_KERNEL
#endif

// d := max(d, s); returns whether d changed.
GORDIAN_CLOCK_KERNEL
inline bool JoinInto(uint32_t* __restrict d, const uint32_t* __restrict s, uint32_t w) {
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
inline void JoinBoth(uint32_t* __restrict x, uint32_t* __restrict y, uint32_t w, bool* cx, bool* cy) {
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
    RecordId begin = 0, end = 0, cursor = 0;  // its records; the next to replay
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
      std::vector<RecordId> once_stack;  // Once.Do records whose f is running (in_once)
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
  struct RecWaiter { RecordId rec; uint32_t g, token; };
  struct ObjWaiter { uint64_t key; uint32_t g, token; };
  // left: the mutex's recorded operations not yet replayed; at 0 no later
  // record reads its clocks and they are freed (a session's short-lived
  // mutexes pinned their clocks' tree nodes to the end of the build).
  // kKeepClocks: a Cond.Wait uses it, whose re-lock the recorder does not
  // see, so it may come after the last recorded operation.
  struct Mutex {
    uint32_t relw = kNoBlock, relr = kNoBlock;
    int32_t readers = 0;
    uint32_t writer = 0;
    uint32_t left = 0;
  };
  static constexpr uint32_t kKeepClocks = 0xffffffffu;
  void MutexOpReplayed(Mutex& m) {
    if (m.left == kKeepClocks || m.left == 0 || --m.left != 0) return;
    for (uint32_t* b : {&m.relw, &m.relr}) {
      if (*b != kNoBlock) FreeBlock(*b);
      *b = kNoBlock;
    }
  }
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
  void Every64kSteps();
  // Tree mode: frees the clock nodes that neither a live clock nor a
  // stored snapshot reaches (ClockArena's collection). Without it every
  // node a goroutine shared (a release into a mutex) and then replaced
  // stayed allocated, though no snapshot kept it: memory grew with
  // operations, not with what is live and kept. Also measures what the
  // live clocks alone hold (HbStats::live_clock_bytes): when that passes the
  // limit, storing fewer snapshots cannot help.
  void Collect();
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
  // nodes on (kMinListedCollectNodes, 2.7 MB): the arena stays small
  // (chan-heavy: most of a rendezvous's path copies are garbage by the
  // next one; the engine without lock edges that lock order builds for a
  // stream multiplexer's test kept 5,000 live nodes of 190,000, 16 MB,
  // when it waited for 2^19). Each collection waits until the nodes have
  // grown demand_backoff_ times what the last one kept, so one whose live
  // clocks are large (chan-heavy/10000: 49,000 nodes) does not collect at
  // every check.
  static constexpr uint64_t kMinListedCollectNodes = 1u << 15;
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
  bool Processed(RecordId rec) const {
    const Gor& s = g_[trace::Value(ix_.GoroutineIndexOf(rec))];
    return s.cursor > rec || s.state == kDone;
  }
  void ParkOnRecord(uint32_t g, RecordId rec) {
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
  uint32_t Snap(uint32_t g, RecordId rec) {
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
  uint32_t Pos(uint32_t g, RecordId rec) const { return rec - g_[g].begin; }
  // Whether rec gets snapshots (not named by HbOptions::unclocked or
  // ::unneeded). The snapshot arrays start as kUnknown, so the records
  // that get none are not written: on traces where most records need no
  // clock, those writes (at a random place of two arrays per record) were
  // a good part of the replay's cache misses.
  bool Clocked(RecordId rec) const { return unclocked_ == nullptr || !(*unclocked_)[rec]; }
  void Begin(uint32_t g, RecordId rec) {
    SetOwn(g, PostEpochAt(Pos(g, rec)));
    fold_now_ = Clocked(rec);
    if (fold_now_) hb_.snaps_.SetPre(rec, CurSnap(g));
  }
  void End(uint32_t g, RecordId rec);
  void Simple(uint32_t g, RecordId rec) {
    Begin(g, rec);
    End(g, rec);
  }

  bool AssignSlots(std::string* err);

  // --- rules
  void ChanOp(uint32_t g, RecordId own, RecordId op);
  void Joint(uint32_t g, RecordId a, uint32_t h, RecordId b);
  void Lock(uint32_t g, RecordId rec, ObjClass c, bool reader);
  void Unlock(uint32_t g, RecordId rec, ObjClass c, bool reader);
  void DropLock(uint32_t g, uint64_t key, uint32_t holder);
  void OncePost(uint32_t g);
  void CondWait(uint32_t g, RecordId rec);
  // One function per record family, called by Step: spawn, channels
  // (close, select), WaitGroup, Once, Cond, tests.
  void Spawn(uint32_t g, RecordId rec);
  void Start(uint32_t g, RecordId rec);
  void Select(uint32_t g, RecordId rec);
  void Close(uint32_t g, RecordId rec);
  void WgAdd(uint32_t g, RecordId rec);
  void WgWait(uint32_t g, RecordId rec);
  void OnceDo(uint32_t g, RecordId rec);
  void Signal(uint32_t g, RecordId rec);
  void TestBoundary(uint32_t g, RecordId rec, bool start);

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
  RecordId first_forced_ = kNoRecord;
  // Whether goroutines keep their lock stacks (Gor::Rare::locks): only
  // Cond.Wait reads them, so a trace without one keeps none (a Lock and
  // Unlock then touch no rare state: two cache misses fewer per pair at
  // 10,000 goroutines).
  bool track_locks_ = false;
  std::vector<Chan> chans_;
  std::vector<Mutex> mutexes_[2];  // Mutex, RWMutex
  std::vector<Wg> wgs_;
  std::vector<Once> onces_;
  std::unordered_map<RecordId, std::pair<uint32_t, uint32_t>> sig_clock_;  // signal rec -> (block, waiters left)
  uint32_t test_clock_ = kNoBlock;
};

}  // namespace gordian::hb
