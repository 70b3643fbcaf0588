// This file implements the clock builder's rules for Once, Cond and
// WaitGroup (clock_builder.h).
#include <algorithm>

#include "gordian/hb/clock_builder.h"

namespace gordian::hb {

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
void Builder::CondWait(uint32_t g, RecordId rec) {
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
      m.left = kKeepClocks;  // its re-lock at the post step is not recorded
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

// Once.Do: the Do that runs f replays its pre step here (its post is
// OncePost, once f's body is replayed); every other Do that returned waits
// for that post and acquires its clock.
void Builder::OnceDo(uint32_t g, RecordId i) {
  const Record& r = rs_[i];
  uint32_t d = ix_.ObjectOf(i);
  if (r.flags & trace::kSuccess) {
    Gor& s = g_[g];
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
}

// Signal/Broadcast releases to the waits it woke (their val is its count);
// the clock is kept until each of them has acquired it.
void Builder::Signal(uint32_t g, RecordId i) {
  Begin(g, i);
  uint32_t n = ix_.WaitersOf(i);
  if (n > 0) {
    uint32_t b = kNoBlock;
    Release(g, &b);
    sig_clock_[i] = {b, n};
  }
  End(g, i);
}

// ---------------------------------------------------------------------------
// WaitGroup

// Every Add and Done releases into the group's clock; the counter is
// replayed so that a Wait is replayed only once it is 0.
void Builder::WgAdd(uint32_t g, RecordId i) {
  const Record& r = rs_[i];
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
}

// A Wait that returned saw the counter at 0: every Add/Done replayed so far
// happens before it, provided every Add replayed so far already happens
// before the Wait by other edges (Go requires Adds that start a round to
// happen before Wait). If some Add does not (wg.Add inside the spawned
// goroutine), another schedule runs the Wait before that Add, where it
// returns early: then no Done is forced before the Wait and the rule adds
// no edge. Add/Done take their stamp before acting, so they are replayed
// before the Wait they let return; a Wait that started with a non-zero
// counter (val) is also held back until the replayed counter is 0. One that
// started at 0 is not: an Add stamped just before it but acting after it
// must not order the Wait after that Add's Done.
void Builder::WgWait(uint32_t g, RecordId i) {
  const Record& r = rs_[i];
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
}

}  // namespace gordian::hb
