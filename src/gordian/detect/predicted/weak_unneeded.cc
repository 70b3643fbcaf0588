// This file decides which records the engine without unlock -> lock edges
// (PredictContext::Weak) stores a clock for: the b's of the questions the
// three detectors that build it ask (docs/analysis-needs.md). Each asks
// Before or Concurrent of two lock acquisitions only:
//   - lock order (lock_order.cc): Concurrent(r1, r2) of requests each made
//     while its goroutine held another lock, of the first few instances of
//     each lock dependency (MarkLockOrderRequests);
//   - mixed deadlock (mixed_deadlock.cc): Concurrent(LA, LB) of the
//     acquisition LA of a lock held at a plain channel operation X and the
//     acquisition LB of that lock by X's partner's goroutine before the
//     partner (MixedDeadlockPartner, ReleasedAcquireBefore);
//   - recursive read lock (recursive_rlock.cc): Before(W, R1) and
//     Before(R2, W) of the RLocks R1, R2 of an RWMutex its goroutine
//     read-locks twice and another goroutine's Locks W of it.
// So a trace of millions of uncontended critical sections builds that
// engine with a clock for a few of them, not for all of them: its
// snapshots were most of the analysis's memory on a stream multiplexer's
// suite. The walk uses the detectors' own WalkLocksets, so that what is
// held where is the same answer for both.
#include "gordian/detect/predicted/predict_context.h"

namespace gordian::detect {

std::shared_ptr<const hb::RecordMask> WeakUnneeded(const PredictContext& c) {
  const trace::Trace& t = c.t;
  hb::RecordMask keep(t.records.size());
  // The RWMutexes some goroutine read-locks while it read-holds them: every
  // Lock of theirs is a W.
  std::vector<uint8_t> reread(c.ops.Count(ObjClass::RWMutex), 0);
  std::vector<HeldLock> held;
  for (GoroutineIndex g : c.Goroutines()) {
    WalkLocksets(c, g, &held, [&](uint32_t i, const std::vector<HeldLock>& h) {
      if (h.empty()) return;
      const Kind k = c.rec(i).kind;
      if (k == Kind::RLock) {
        const uint32_t d = c.ops.ObjectOf(i);
        for (const HeldLock& x : h) {
          if (d != hb::kNoObject && x.reader && x.key == LockKey(ObjClass::RWMutex, d)) {
            reread[d] = 1;
            keep.Set(x.acquire);
            keep.Set(i);
          }
        }
      }
      const uint32_t y = MixedDeadlockPartner(c.ops, i);
      if (y == hb::kNoRecord) return;
      const uint32_t yown = c.ops.Owner(y);
      for (const HeldLock& m : h) {
        const uint32_t lb = ReleasedAcquireBefore(c.ops, m.key, m.reader, c.Gor(yown), yown);
        if (lb == hb::kNoRecord) continue;
        keep.Set(m.acquire);
        keep.Set(lb);
      }
    });
  }
  MarkLockOrderRequests(c, &keep);
  for (uint32_t d = 0; d < reread.size(); ++d) {
    if (!reread[d]) continue;
    for (uint32_t w : c.ops.Ops(ObjClass::RWMutex, d)) {
      if (c.rec(w).kind == Kind::RWLock) keep.Set(w);
    }
  }
  auto unneeded = std::make_shared<hb::RecordMask>(t.records.size());
  for (size_t i = 0; i < t.records.size(); ++i) unneeded->Set(i, !keep[i]);
  return unneeded;
}

}  // namespace gordian::detect
