// This file implements the mixed deadlock prediction (ADVOCATE P06): a
// goroutine A holds a mutex m while it blocks on a channel operation X
// whose partner, in goroutine B, comes after B takes m.
//
// Rule: for a completed send or receive X on an unbuffered channel (or a
// receive that saw the channel closed), while A holds m (taken at LA):
//   1. X's partner Y (the receive/send, or the close) runs in B != A;
//   2. B takes m at LB before Y and releases it before Y (so in the run B's
//      critical section came first; had B held m at Y, A and B would have
//      held it together);
//   3. LA and LB are concurrent in the happens-before relation without
//      unlock -> lock edges: another schedule lets A take m first;
//   4. no other operation could complete X instead: every possible partner
//      of X (FindPossiblePartners) is in B after LB or is Y.
// Then in that schedule A holds m and waits at X, and B waits at LB for m
// before it can reach Y: both block forever.
// Limits: buffered channels (a send blocks only on a full buffer) and
// selects (another case may fire) are not analysed.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

namespace {

bool IsAcquire(Kind k) {
  return k == Kind::MutexLock || k == Kind::RWLock || k == Kind::RLock ||
         k == Kind::MutexTryLock || k == Kind::RWTryLock || k == Kind::RWTryRLock;
}
bool IsRelease(Kind k) {
  return k == Kind::MutexUnlock || k == Kind::RWUnlock || k == Kind::RUnlock;
}

}  // namespace

uint32_t ReleasedAcquireBefore(const hb::OpIndex& index, uint64_t key, bool reader_held,
                               GoroutineIndex g, uint32_t before) {
  ObjClass cls = ObjClass(key >> 32);
  auto ops = index.Ops(cls, uint32_t(key));
  // Ops are in record order: find the last one before `before`.
  auto it = std::lower_bound(ops.begin(), ops.end(), before);
  bool released = false;
  const uint32_t gbegin = index.trace().goroutines[trace::Value(g)].begin;
  while (it != ops.begin()) {
    --it;
    uint32_t i = *it;
    if (i < gbegin) break;
    const trace::Record& r = index.trace().records[i];
    if (IsRelease(r.kind) && !(r.flags & trace::kFailed)) {
      released = true;
      continue;
    }
    if (!IsAcquire(r.kind)) continue;
    bool ok = r.tpost != 0 && (r.kind == Kind::MutexLock || r.kind == Kind::RWLock ||
                               r.kind == Kind::RLock || (r.flags & trace::kSuccess));
    if (!ok) continue;
    bool reader = r.kind == Kind::RLock || r.kind == Kind::RWTryRLock;
    if (reader && reader_held) continue;  // read/read does not block
    return released ? i : hb::kNoRecord;
  }
  return hb::kNoRecord;
}

uint32_t MixedDeadlockPartner(const hb::OpIndex& ops, uint32_t x) {
  const trace::Trace& t = ops.trace();
  const trace::Record& r = t.records[x];
  if ((r.kind != Kind::ChanSend && r.kind != Kind::ChanRecv) || r.tpost == 0) return hb::kNoRecord;
  uint32_t ch = ops.ObjectOf(x);
  if (ch == hb::kNoObject) return hb::kNoRecord;
  uint32_t y = hb::kNoRecord;
  if (r.flags & trace::kClosed) {
    if (r.kind != Kind::ChanRecv) return hb::kNoRecord;
    y = ops.Channel(ch).close_rec;
  } else {
    if (ops.Channel(ch).capacity != 0) return hb::kNoRecord;
    y = ops.Partner(x);
  }
  if (y == hb::kNoRecord) return hb::kNoRecord;
  uint32_t yown = ops.Owner(y);
  if (ops.GoroutineIndexOf(yown) == ops.GoroutineIndexOf(x) || t.records[yown].tpost == 0) {
    return hb::kNoRecord;
  }
  return y;
}

void PredictMixedDeadlock(PredictContext& c) {
  if (c.NoLocks()) return;  // nothing is done under a lock
  std::vector<HeldLock> held;
  std::vector<uint32_t> partners;
  for (GoroutineIndex a : c.Goroutines()) {
    WalkLocksets(c, a, &held, [&](uint32_t x, const std::vector<HeldLock>& h) {
      if (h.empty() || c.exhausted()) return;
      const uint32_t y = MixedDeadlockPartner(c.ops, x);
      if (y == hb::kNoRecord) return;
      const trace::Record& r = c.rec(x);
      uint32_t yown = c.ops.Owner(y);
      GoroutineIndex b = c.Gor(yown);
      for (const HeldLock& m : h) {
        if (!c.Spend(1)) return;
        uint32_t lb = ReleasedAcquireBefore(c.ops, m.key, m.reader, b, yown);
        if (lb == hb::kNoRecord) continue;
        const hb::HappensBefore* weak = c.Weak();
        if (weak == nullptr || !weak->Concurrent(m.acquire, lb)) continue;
        FindPossiblePartners(c.hb, x, &partners);
        c.Spend(partners.size());
        bool rescued = false;
        for (uint32_t p : partners) {
          uint32_t po = c.ops.Owner(p);
          if (po == yown || p == y) continue;
          if (c.Gor(po) == b && po > lb) continue;  // behind LB: B cannot reach it
          rescued = true;
          break;
        }
        if (rescued) continue;
        bool send = r.kind == Kind::ChanSend;
        report::Role xrole = send ? report::Role::Send : report::Role::Recv;
        report::Role yrole = hb::DirOf(c.rec(y)) == ChanDir::Close ? report::Role::Close
                             : send ? report::Role::Recv : report::Role::Send;
        c.Report(report::FindingKind::MixedDeadlock,
                 {{x, xrole}, {m.acquire, report::Role::Lock}, {lb, report::Role::Lock}, {y, yrole}},
                 fmt::format("goroutine {} holds the lock taken at {} while it {} at {}; its "
                             "partner at {} (goroutine {}) first takes the same lock at {}: "
                             "another schedule deadlocks",
                             c.Index().StableId(a), BaseName(c.Where(m.acquire)),
                             send ? "sends" : "receives", BaseName(c.Where(x)),
                             BaseName(c.Where(y)), c.Index().StableId(b),
                             BaseName(c.Where(lb))),
                 {{m.acquire, report::Role::Lock, "takes the lock first"},
                  {x, xrole, "blocks on the channel, holding the lock", true},
                  {lb, report::Role::Lock, "blocks on the lock: its channel operation never comes",
                   true}});
        return;
      }
    });
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [x, acquire, lb, y] -> without lock edges: past, the holder takes the lock
// (acquire) and blocks on its channel operation x, the partner blocks on the
// lock (lb) before its channel operation y; expected: acquire completed, x
// and lb never did.
namespace {

bool PlanMixedDeadlock(const PlanInput& in, std::vector<Plan>* plans, std::string*) {
  const trace::Trace& t = in.t;
  const report::Finding& f = in.f;
  if (in.weak == nullptr || f.records.size() < 3) return true;
  uint32_t x = in.hb.ops().Owner(f.records[0]), acquire = f.records[1], lb = f.records[2];
  Plan p;
  p.weak = true;
  p.bug = {BugOp{acquire, kChoiceRecorded, Expect::Completed, true},
           BugOp{x, kChoiceRecorded, Expect::Blocked, true},
           BugOp{lb, kChoiceRecorded, Expect::Blocked, true}};
  if (t.records[f.records[0]].kind == Kind::SelectCase) {
    p.bug[1].choice = t.records[f.records[0]].aux;
  }
  p.how = fmt::format("the lock at {} is taken, the holder blocks at {}, the partner "
                      "blocks on the lock at {}", SiteAt(t, acquire),
                      SiteAt(t, x), SiteAt(t, lb));
  plans->push_back(std::move(p));
  return true;
}

}  // namespace

extern const RewriteSpec kMixedDeadlockRewrite{PlanMixedDeadlock, true};

}  // namespace gordian::detect
