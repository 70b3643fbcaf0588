// This file implements the predicted recursive read lock deadlock: a
// goroutine read-locks an RWMutex it already read-locks (Resolve -> Lookup
// both taking mu.RLock), and a writer's Lock can arrive in between. Go's
// RWMutex blocks new readers while a writer waits, so: the writer waits for
// the first read lock, the second RLock waits for the writer, and the
// reader never reaches its RUnlock. Reported as double-lock, predicted.
//
// Rule: in goroutine g, an RLock R2 of m while g holds a read lock of m
// taken at R1, and a Lock W of m by another goroutine such that, in the
// happens-before relation without unlock -> lock edges, W does not happen
// before R1 and R2 does not happen before W: some schedule runs W's request
// after R1 and before R2. (If W always completes before R1, or R2 always
// before W, the writer cannot slip in.)
#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictRecursiveRLock(PredictContext& c) {
  if (c.ops.Count(ObjClass::RWMutex) == 0) return;  // no RLock
  std::vector<HeldLock> held;
  for (GoroutineIndex g : c.Goroutines()) {
    WalkLocksets(c, g, &held, [&](uint32_t r2, const std::vector<HeldLock>& h) {
      const trace::Record& r = c.rec(r2);
      if (r.kind != Kind::RLock || c.exhausted()) return;
      uint32_t d = c.ops.ObjectOf(r2);
      if (d == hb::kNoObject) return;
      uint64_t key = LockKey(ObjClass::RWMutex, d);
      const HeldLock* first = nullptr;
      for (const HeldLock& x : h) {
        if (x.key == key && x.reader) first = &x;
      }
      if (first == nullptr) return;
      const hb::HappensBefore* weak = nullptr;
      for (uint32_t w : c.ops.Ops(ObjClass::RWMutex, d)) {
        if (c.rec(w).kind != Kind::RWLock || c.Gor(w) == g) continue;
        if (!c.Spend(1)) return;
        if (weak == nullptr && (weak = c.Weak()) == nullptr) return;
        if (weak->Before(w, first->acquire) || weak->Before(r2, w)) continue;
        uint32_t r1 = first->acquire;
        c.Report(report::FindingKind::DoubleLock,
                 {{r2, report::Role::Lock}, {r1, report::Role::Lock}, {w, report::Role::Lock}},
                 fmt::format("RLock at {} read-locks again a mutex this goroutine read-locked "
                             "at {}; if the Lock at {} (goroutine {}) comes in between, the "
                             "writer waits for the first read lock and the second RLock waits "
                             "for the writer: another schedule deadlocks",
                             BaseName(c.Where(r2)), BaseName(c.Where(r1)), BaseName(c.Where(w)),
                             c.Index().StableId(c.Gor(w))),
                 {{r1, report::Role::Lock, "first RLock"},
                  {w, report::Role::Lock, "Lock waits for the reader", true},
                  {r2, report::Role::Lock, "second RLock waits for the writer", true}});
        return;
      }
    });
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [r2, r1, w] -> without lock edges: past, the first RLock r1, the writer's
// Lock w (it waits for the reader), the second RLock r2 (it waits for the
// pending writer); expected: r1 completed, w and r2 never did.
namespace {

bool PlanRecursiveRLock(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const report::Finding& f = in.f;
  if (in.weak == nullptr || f.records.size() < 3) return true;
  uint32_t r2 = f.records[0], r1 = f.records[1], w = f.records[2];
  if (t.records[r2].kind != Kind::RLock || t.records[r1].kind != Kind::RLock ||
      t.records[w].kind != Kind::RWLock) {
    return true;
  }
  plans->push_back({true,
                    {BugOp{r1, kChoiceRecorded, Expect::Completed, true},
                     BugOp{w, kChoiceRecorded, Expect::Blocked, true},
                     BugOp{r2, kChoiceRecorded, Expect::Blocked, true}},
                    fmt::format("RLock at {}, then the writer's Lock at {}, then the RLock at {}",
                                SiteAt(t, r1), SiteAt(t, w), SiteAt(t, r2))});
  return true;
}

}  // namespace

extern const RewriteSpec kRecursiveRLockRewrite{PlanRecursiveRLock, true};

}  // namespace gordian::detect
