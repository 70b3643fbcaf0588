// This file implements the unlock-of-unlocked prediction (ADVOCATE P04): an
// Unlock that, in another schedule of the run, runs while the mutex is not
// locked ("fatal error: sync: unlock of unlocked mutex").
//
// Rule: the counter matching of counter_matching.h with Lock (and successful
// TryLock) as increments and Unlock as decrements, separately for the write
// side and the read side of an RWMutex. It is only needed for mutexes that
// some goroutine unlocks without holding them itself (Go allows handing a
// locked mutex to another goroutine): when every Unlock follows its own
// goroutine's Lock in program order, that Lock happens before it and the
// matching is trivially perfect, so such mutexes are skipped.
#include <fmt/format.h>
#include <set>

#include "gordian/detect/predicted/counter_matching.h"
#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictUnlockOfUnlocked(PredictContext& c) {
  if (c.NoLocks()) return;  // no unlock
  // Locks unlocked by a goroutine that does not hold them.
  std::set<uint64_t> handed_off;  // ordered: deterministic output
  std::vector<HeldLock> held;
  for (GoroutineIndex g : c.Goroutines()) {
    WalkLocksets(c, g, &held, [&](uint32_t i, const std::vector<HeldLock>& h) {
      const trace::Record& r = c.rec(i);
      if (r.kind != Kind::MutexUnlock && r.kind != Kind::RWUnlock && r.kind != Kind::RUnlock) return;
      if (r.flags & trace::kFailed) return;
      uint32_t d = c.ops.ObjectOf(i);
      if (d == hb::kNoObject) return;
      uint64_t key = LockKey(hb::ClassOf(r.kind), d);
      bool reader = r.kind == Kind::RUnlock;
      for (const HeldLock& l : h) {
        if (l.key == key && l.reader == reader) return;
      }
      handed_off.insert(key | (uint64_t(reader) << 63));
    });
  }
  std::vector<CounterOp> locks, unlocks;
  for (uint64_t k : handed_off) {
    bool reader = k >> 63;
    ObjClass cls = ObjClass((k >> 32) & 0xff);
    uint32_t d = uint32_t(k);
    locks.clear();
    unlocks.clear();
    bool failed = false;
    for (uint32_t i : c.ops.Ops(cls, d)) {
      const trace::Record& r = c.rec(i);
      switch (r.kind) {
        case Kind::MutexLock: case Kind::RWLock: case Kind::RLock:
          if (r.tpost != 0 && (r.kind == Kind::RLock) == reader) locks.push_back({i, 1});
          break;
        case Kind::MutexTryLock: case Kind::RWTryLock: case Kind::RWTryRLock:
          if ((r.flags & trace::kSuccess) && (r.kind == Kind::RWTryRLock) == reader) {
            locks.push_back({i, 1});
          }
          break;
        case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock:
          if ((r.kind == Kind::RUnlock) != reader) break;
          if (r.flags & trace::kFailed) failed = true;
          else unlocks.push_back({i, 1});
          break;
        default:
          break;
      }
    }
    if (failed || unlocks.empty()) continue;
    if (!c.Spend(locks.size() + unlocks.size())) return;
    CounterResult m = MatchCounter(c.hb, locks, unlocks, c.opt.work_limit / 4);
    if (m.safe || m.gave_up) continue;
    uint32_t u = m.unmatched;
    uint32_t lock = ConcurrentAdd(c.hb, locks, u);
    const char* what = reader ? "RUnlock" : "Unlock";
    if (lock == hb::kNoRecord) {
      c.Report(report::FindingKind::UnlockOfUnlocked, {{u, report::Role::Unlock}},
               fmt::format("{} at {} is not ordered after a lock of the mutex: another "
                           "schedule unlocks an unlocked mutex (fatal error)",
                           what, BaseName(c.Where(u))),
               {});
      continue;
    }
    c.Report(report::FindingKind::UnlockOfUnlocked,
             {{u, report::Role::Unlock}, {lock, report::Role::Lock}},
             fmt::format("{} at {} can run before the {} at {} it releases: another "
                         "schedule unlocks an unlocked mutex (fatal error)",
                         what, BaseName(c.Where(u)), reader ? "RLock" : "Lock",
                         BaseName(c.Where(lock))),
             {{u, report::Role::Unlock, fmt::format("{} of the unlocked mutex: fatal error", what)},
              {lock, report::Role::Lock, "the lock comes too late"}});
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [unlock, lock?] -> past(unlock), then the Unlock. Followed, the mutex is
// not locked when it runs (its locks in the past are matched by unlocks
// there, which counter matching found): fatal error; expected: the Unlock
// has kFailed.
namespace {

// Locks minus unlocks of u's mutex in u's past (under e), same mode.
int64_t HeldAt(const hb::HappensBefore& e, uint32_t u) {
  const trace::Trace& t = e.trace();
  uint32_t m = e.ops().ObjectOf(u);
  if (m == hb::kNoObject) return 0;
  bool reader = t.records[u].kind == Kind::RUnlock;
  int64_t held = 0;
  for (uint32_t i : e.ops().Ops(hb::ClassOf(t.records[u].kind), m)) {
    const trace::Record& r = t.records[i];
    if (i == u || !e.Before(i, u)) continue;
    switch (r.kind) {
      case Kind::MutexLock: case Kind::RWLock: case Kind::RLock:
        if ((r.kind == Kind::RLock) == reader) held++;
        break;
      case Kind::MutexTryLock: case Kind::RWTryLock: case Kind::RWTryRLock:
        if ((r.flags & trace::kSuccess) && (r.kind == Kind::RWTryRLock) == reader) held++;
        break;
      case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock:
        if ((r.kind == Kind::RUnlock) == reader && !(r.flags & trace::kFailed)) held--;
        break;
      default:
        break;
    }
  }
  return held;
}

bool PlanUnlockOfUnlocked(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  uint32_t u = in.f.records[0];
  bool weak = HeldAt(in.hb, u) > 0 && in.weak != nullptr && HeldAt(*in.weak, u) <= 0;
  plans->push_back({weak, {BugOp{u, kChoiceRecorded, Expect::Failed, true}},
                    fmt::format("the Unlock at {} runs before the Lock it releases",
                                SiteAt(in.t, u))});
  return true;
}

}  // namespace

extern const RewriteSpec kUnlockOfUnlockedRewrite{PlanUnlockOfUnlocked, true};

}  // namespace gordian::detect
