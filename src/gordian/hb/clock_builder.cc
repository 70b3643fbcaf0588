// This file implements the clock builder's walk (clock_builder.h): the
// scheduler that replays the goroutines' records in stamp order, parking a
// goroutine on an unmet dependency and forcing one when all are parked,
// the bracketing of a record (End), the dispatch of a record to the rule of
// its family (Step), with the rules of spawns and tests, and Run, which
// sets the engine up, walks, and reports.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "gordian/hb/clock_builder.h"

namespace gordian::hb {

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
// Record bracketing

void Builder::End(uint32_t g, RecordId rec) {
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
// One event

// Replays g's next step: a due Once.Do post, the end of g, or its next
// record, handed to the rule of its family (one function each, here for
// spawns and tests, in the files of their primitive for the others).
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
  switch (rs_[i].kind) {
    case Kind::GoSpawn:
      Spawn(g, i);
      return;
    case Kind::GoStart:
      Start(g, i);
      return;
    case Kind::ChanSend:
    case Kind::ChanRecv:
      ChanOp(g, i, i);
      return;
    case Kind::Select:
      Select(g, i);
      return;
    case Kind::ChanClose:
      Close(g, i);
      return;
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
    case Kind::WgAdd:
      WgAdd(g, i);
      return;
    case Kind::WgWait:
      WgWait(g, i);
      return;
    case Kind::OnceDo:
      OnceDo(g, i);
      return;
    case Kind::CondWait:
      CondWait(g, i);
      return;
    case Kind::CondSignal:
    case Kind::CondBroadcast:
      Signal(g, i);
      return;
    case Kind::TestStart:
      TestBoundary(g, i, true);
      return;
    case Kind::TestEnd:
      TestBoundary(g, i, false);
      return;
    default:
      Simple(g, i);
      return;
  }
}

// Rule (Signal/Wait): the child starts with the parent's clock at the
// spawn. The child has not run yet, so its clock is initialised here and
// its first record only waits for this one.
void Builder::Spawn(uint32_t g, RecordId i) {
  const Record& r = rs_[i];
  Begin(g, i);
  uint32_t child = r.obj - 1;
  if (r.obj >= 1 && child < g_.size() && child != g && g_[child].cursor == g_[child].begin &&
      g_[child].state != kDone) {
    Inherit(child, g);
  }
  End(g, i);
}

// A goroutine's first record waits for its spawn.
void Builder::Start(uint32_t g, RecordId i) {
  RecordId sp = ix_.SpawnOfIndex(GoroutineIndex(g));
  if (sp != kNoRecord && !Processed(sp) && !force_) {
    ParkOnRecord(g, sp);
    return;
  }
  Simple(g, i);
}

// go test runs top-level tests one after the other: the end of each
// happens before the start of the next (parallel tests excepted).
void Builder::TestBoundary(uint32_t g, RecordId i, bool start) {
  Begin(g, i);
  if (hb_.opt_.test_order) {
    if (start) Acquire(g, test_clock_);
    else ReleaseJoin(g, &test_clock_);
  }
  End(g, i);
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
  for (ObjClass c : {ObjClass::Mutex, ObjClass::RWMutex}) {
    std::vector<Mutex>& ms = mutexes_[c == ObjClass::RWMutex];
    ms.assign(ix_.Count(c), Mutex{});
    for (uint32_t d = 0; d < ms.size(); ++d) ms[d].left = ix_.Ops(c, d).size();
  }
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

  hb_.snaps_.Finish();
  // Collections on demand wait until the nodes have grown a few times, so
  // a replay can end with most of its nodes garbage; what it reports as in
  // use (HbStats::engine_bytes, charged to the analysis's memory budget)
  // should be what its clocks and snapshots hold. One mark, at most a few
  // ms.
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
  hb_.stats_.index_bytes = ix_.MemoryBytes() + hb_.snaps_.MemoryBytes() + pool_.bytes() +
                          objs_.bytes() + stored_.capacity() * 4;
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
