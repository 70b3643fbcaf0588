// This file implements the clock builder's rules for Mutex and RWMutex
// (clock_builder.h): Lock waits until the replayed mutex is free and
// acquires what the unlocks released; Unlock releases.
#include <vector>

#include "gordian/hb/clock_builder.h"

namespace gordian::hb {

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
void Builder::Lock(uint32_t g, RecordId rec, ObjClass c, bool reader) {
  const Record& r = rs_[rec];
  bool is_try = r.kind == Kind::MutexTryLock || r.kind == Kind::RWTryLock ||
                r.kind == Kind::RWTryRLock;
  uint32_t d = ix_.ObjectOf(rec);
  if (d == kNoObject) {
    Simple(g, rec);
    return;
  }
  Mutex& m = mutexes_[c == ObjClass::RWMutex][d];
  if (r.tpost == 0 || (is_try && !(r.flags & trace::kSuccess))) {
    Simple(g, rec);  // blocked, or a failed TryLock: no synchronisation
    MutexOpReplayed(m);
    return;
  }
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
  MutexOpReplayed(m);
}

// Unlock releases the goroutine's clock into the mutex (the writer clock is
// replaced: the unlocker's clock already includes every earlier release);
// RUnlock joins into the readers' clock.
void Builder::Unlock(uint32_t g, RecordId rec, ObjClass c, bool reader) {
  const Record& r = rs_[rec];
  uint32_t d = ix_.ObjectOf(rec);
  if (d == kNoObject) {
    Simple(g, rec);
    return;
  }
  Mutex& m = mutexes_[c == ObjClass::RWMutex][d];
  if (r.flags & trace::kFailed) {
    Simple(g, rec);  // a fatal "unlock of unlocked": nothing was released
    MutexOpReplayed(m);
    return;
  }
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
  MutexOpReplayed(m);
}

}  // namespace gordian::hb
