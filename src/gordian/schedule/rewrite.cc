// This file implements RewriteFinding (rewrite.h): the per-kind plans and
// the one linearization they all share.
//
// Linearization. Given the bug's operations B in the buggy order and a
// happens-before engine E:
//   1. Per goroutine h, the prefix of its controlled operations that the
//      schedule lists: up to its last bug operation, and at least up to the
//      last operation that E-happens before some bug operation (Before is
//      monotone along program order, so a binary search finds it). The
//      union S is closed under E's past of B: nothing a bug operation
//      depends on is left out, and nothing is added that it does not need
//      (everything else waits until the schedule is done: free run).
//   2. Edges over S: program order, for each operation n and each other
//      goroutine h the last operation of h that E-happens before n, and the
//      chain B[0] -> B[1] -> ... (the buggy order).
//   3. Kahn's algorithm: among ready operations, those not in B go first in
//      recorded order (OrderKey), so the prefix looks like the recorded run;
//      a bug operation is placed only when nothing else is ready. If the
//      buggy order contradicts E (a cycle), the finding is not rewritable.
// Every order this produces is consistent with E, and so realisable by the
// program if E captures all its synchronisation (the same assumption the
// prediction made); the replay then observes whether it is.
#include "gordian/schedule/rewrite.h"

#include <algorithm>
#include <filesystem>
#include <queue>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/hb/op_index.h"
#include "gordian/schedule/from_trace.h"

namespace gordian::schedule {

using trace::Kind;
using trace::Record;
namespace fs = std::filesystem;

namespace {

struct Controlled {
  std::vector<std::vector<uint32_t>> recs;     // per goroutine index: controlled records
  std::unordered_map<uint32_t, uint32_t> pos;  // record -> index in its goroutine
};

Controlled BuildControlled(const trace::Trace& t) {
  Controlled c;
  c.recs.resize(t.goroutines.size());
  for (size_t g = 0; g < t.goroutines.size(); g++) {
    const trace::Goroutine& gr = t.goroutines[g];
    if (gr.stable_id.empty()) continue;
    for (uint32_t i = gr.begin; i < gr.end; i++) {
      if (!IsControlled(t.records[i].kind)) continue;
      c.pos[i] = static_cast<uint32_t>(c.recs[g].size());
      c.recs[g].push_back(i);
    }
  }
  return c;
}

struct BugOp {
  uint32_t rec = 0;                 // a controlled record (a Select, not its case)
  int32_t choice = kChoiceFree;     // forced select case, kChoiceFree: the recorded one
  Expect expect = Expect::Completed;
  bool check = true;                // part of the expectations
};

struct Plan {
  bool weak = false;
  std::vector<BugOp> bug;  // in the buggy order
  std::string how;
};

// The bug operation for channel record r (a plain operation, or a case of a
// select: then the select itself, forced to that case).
BugOp ChanBugOp(const trace::Trace& t, const hb::OpIndex& ops, uint32_t r, Expect expect,
                bool check) {
  BugOp b{ops.Owner(r), kChoiceFree, expect, check};
  if (t.records[r].kind == Kind::SelectCase) {
    b.choice = static_cast<int32_t>(t.records[r].aux);
    if (expect == Expect::Closed) b.expect = Expect::SelectCaseClosed;
  }
  return b;
}

// The operation that can make case alt of select q ready: the close of a
// receive case's channel when it does not happen after q, else the first
// operation of the other direction on that channel in another goroutine
// concurrent with q; kNoRecord if there is none (a timer's channel).
uint32_t AltPartner(const hb::HappensBefore& e, uint32_t q, uint32_t alt) {
  const trace::Trace& t = e.trace();
  const hb::OpIndex& ops = e.ops();
  uint32_t d = ops.ObjectOf(alt);
  if (d == hb::kNoObject) return hb::kNoRecord;
  hb::ChanDir want = hb::DirOf(t.records[alt]) == hb::ChanDir::Send ? hb::ChanDir::Recv
                                                                     : hb::ChanDir::Send;
  uint32_t close = ops.Channel(d).close_rec;
  if (want == hb::ChanDir::Send && close != hb::kNoRecord && !e.Before(q, close)) return close;
  for (uint32_t i : ops.Ops(hb::ObjClass::Chan, d)) {
    if (hb::DirOf(t.records[i]) != want || t.records[ops.Owner(i)].tpost == 0) continue;
    uint32_t own = ops.Owner(i);
    if (own != i && ops.ChosenCase(own) != i) continue;  // a case that did not fire
    if (e.Concurrent(own, q)) return i;
  }
  return hb::kNoRecord;
}

// Largest k < limit with Before(recs[k], b), or -1.
int64_t LastBefore(const hb::HappensBefore& e, const std::vector<uint32_t>& recs, size_t limit,
                   uint32_t b) {
  int64_t lo = -1, hi = static_cast<int64_t>(std::min(limit, recs.size())) - 1;
  while (lo < hi) {
    int64_t mid = (lo + hi + 1) / 2;
    if (e.Before(recs[mid], b)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

bool Linearize(const trace::Trace& t, const std::string& trace_dir, const hb::HappensBefore& e,
               const Controlled& c, const Plan& plan, const report::Finding& f, Rewrite* out,
               std::string* err) {
  const size_t ng = t.goroutines.size();
  std::vector<size_t> cut(ng, 0);
  std::unordered_map<uint32_t, size_t> bug_at;  // rec -> position in plan.bug
  for (size_t i = 0; i < plan.bug.size(); i++) {
    uint32_t b = plan.bug[i].rec;
    auto p = c.pos.find(b);
    if (p == c.pos.end()) {
      *err = fmt::format("operation at {} is not one a schedule orders",
                         SiteText(t, t.records[b]));
      return false;
    }
    if (!bug_at.emplace(b, i).second) {
      *err = "the bug's operations repeat";
      return false;
    }
    uint32_t gb = e.GoroutineOf(b) - 1;
    cut[gb] = std::max<size_t>(cut[gb], p->second + 1);
    for (size_t h = 0; h < ng; h++) {
      if (h == gb || c.recs[h].empty()) continue;
      int64_t k = LastBefore(e, c.recs[h], c.recs[h].size(), b);
      cut[h] = std::max<size_t>(cut[h], static_cast<size_t>(k + 1));
    }
  }
  // Nodes: (h, k) for k < cut[h], numbered goroutine by goroutine.
  std::vector<size_t> base(ng + 1, 0);
  for (size_t h = 0; h < ng; h++) base[h + 1] = base[h] + cut[h];
  const size_t n = base[ng];
  size_t nonempty = 0;
  for (size_t h = 0; h < ng; h++) nonempty += cut[h] > 0;
  if (n * nonempty > 50'000'000) {
    *err = fmt::format("the bug's past is too large to rewrite ({} operations)", n);
    return false;
  }
  std::vector<uint32_t> rec_of(n), deps(n, 0);
  std::vector<std::vector<uint32_t>> succ(n);
  auto edge = [&](size_t a, size_t b) {
    succ[a].push_back(static_cast<uint32_t>(b));
    deps[b]++;
  };
  for (size_t h = 0; h < ng; h++) {
    for (size_t k = 0; k < cut[h]; k++) {
      size_t id = base[h] + k;
      uint32_t r = c.recs[h][k];
      rec_of[id] = r;
      if (k > 0) edge(id - 1, id);
      for (size_t o = 0; o < ng; o++) {
        if (o == h || cut[o] == 0) continue;
        int64_t j = LastBefore(e, c.recs[o], cut[o], r);
        if (j >= 0) edge(base[o] + static_cast<size_t>(j), id);
      }
    }
  }
  auto node_of = [&](uint32_t rec) {
    uint32_t g = e.GoroutineOf(rec) - 1;
    return base[g] + c.pos.at(rec);
  };
  for (size_t i = 1; i < plan.bug.size(); i++) {
    edge(node_of(plan.bug[i - 1].rec), node_of(plan.bug[i].rec));
  }
  // A Wait of the schedule must find the counter as the relation assumes.
  // E orders an Add before a Wait only when the recorded Wait depended on it;
  // an Add that E leaves unordered (the Add-inside-the-goroutine bug) is, in
  // the schedule, placed after the Wait: listed before it, it would raise the
  // counter and the Wait would block for a Done the schedule puts later.
  for (size_t h = 0; h < ng; h++) {
    for (size_t k = 0; k < cut[h]; k++) {
      uint32_t w = c.recs[h][k];
      if (t.records[w].kind != Kind::WgWait || t.records[w].tpost == 0) continue;
      uint32_t wg = e.ops().ObjectOf(w);
      if (wg == hb::kNoObject) continue;
      for (uint32_t a : e.ops().Ops(hb::ObjClass::WaitGroup, wg)) {
        const Record& ra = t.records[a];
        if (ra.kind != Kind::WgAdd || static_cast<int32_t>(ra.val) <= 0) continue;
        if (e.GoroutineOf(a) == e.GoroutineOf(w) || e.Before(a, w)) continue;
        auto pa = c.pos.find(a);
        if (pa == c.pos.end() || pa->second >= cut[e.GoroutineOf(a) - 1]) continue;
        edge(base[h] + k, node_of(a));
      }
    }
  }
  // Kahn: non-bug operations first, in recorded order.
  using Item = std::pair<uint64_t, uint32_t>;  // (OrderKey, node)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  std::vector<uint32_t> ready_bug;
  auto push = [&](size_t id) {
    if (bug_at.count(rec_of[id])) ready_bug.push_back(static_cast<uint32_t>(id));
    else ready.push({OrderKey(t.records[rec_of[id]]), static_cast<uint32_t>(id)});
  };
  for (size_t id = 0; id < n; id++) {
    if (deps[id] == 0) push(id);
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  while (order.size() < n) {
    uint32_t id;
    if (!ready.empty()) {
      id = ready.top().second;
      ready.pop();
    } else if (!ready_bug.empty()) {
      id = ready_bug.back();
      ready_bug.pop_back();
    } else {
      *err = "the buggy order contradicts happens-before (no schedule of this run has it)";
      return false;
    }
    order.push_back(id);
    for (uint32_t s : succ[id]) {
      if (--deps[s] == 0) push(s);
    }
  }
  // The schedule.
  Schedule& s = out->schedule;
  s = Schedule();
  s.cmd = InvocationOf(t, trace_dir);
  s.origin = fmt::format("rewrite {} of trace {}", report::KindName(f.kind),
                         fs::absolute(trace_dir).lexically_normal().string());
  s.expect = std::string(report::KindName(f.kind));
  std::unordered_map<uint32_t, uint32_t> sid = ScheduleGoroutines(t, &s);
  out->expect.clear();
  for (uint32_t id : order) {
    uint32_t r = rec_of[id];
    const Record& rec = t.records[r];
    uint32_t gid = e.GoroutineOf(r);
    Op op;
    op.g = sid.at(gid);
    op.kind = rec.kind;
    op.obj = rec.obj;
    op.val = rec.val;
    op.flags = rec.flags;
    op.index = c.pos.at(r);
    op.site = SiteText(t, rec);
    op.blocks = rec.tpost == 0;
    if (rec.kind == Kind::Select && rec.tpost != 0) {
      op.choice = rec.val == trace::kDefaultCase ? kChoiceDefault : static_cast<int32_t>(rec.val);
    }
    auto b = bug_at.find(r);
    if (b != bug_at.end()) {
      const BugOp& bo = plan.bug[b->second];
      if (bo.choice != kChoiceFree) op.choice = bo.choice;
      if (bo.expect == Expect::Blocked) op.blocks = true;
    }
    s.ops.push_back(op);
  }
  for (const BugOp& bo : plan.bug) {
    if (!bo.check) continue;
    const Record& rec = t.records[bo.rec];
    Expectation x;
    x.goroutine = t.goroutines[e.GoroutineOf(bo.rec) - 1].stable_id;
    x.index = c.pos.at(bo.rec);
    x.kind = rec.kind;
    x.site = SiteText(t, rec);
    x.choice = bo.choice;
    x.expect = bo.expect;
    out->expect.push_back(std::move(x));
  }
  out->how = plan.how;
  return true;
}

bool IsLockKind(Kind k) {
  return k == Kind::MutexLock || k == Kind::RWLock || k == Kind::RLock;
}

// The WaitGroup counter of the past of done (under e) plus done's delta.
int64_t CounterAt(const hb::HappensBefore& e, uint32_t done) {
  const trace::Trace& t = e.trace();
  uint32_t w = e.ops().ObjectOf(done);
  if (w == hb::kNoObject) return 0;
  int64_t sum = static_cast<int32_t>(t.records[done].val);
  for (uint32_t i : e.ops().Ops(hb::ObjClass::WaitGroup, w)) {
    const Record& r = t.records[i];
    if (r.kind != Kind::WgAdd || i == done) continue;
    if (e.Before(i, done)) sum += static_cast<int32_t>(r.val);
  }
  return sum;
}

// Locks minus unlocks of u's mutex in u's past (under e), same mode.
int64_t HeldAt(const hb::HappensBefore& e, uint32_t u) {
  const trace::Trace& t = e.trace();
  uint32_t m = e.ops().ObjectOf(u);
  if (m == hb::kNoObject) return 0;
  bool reader = t.records[u].kind == Kind::RUnlock;
  int64_t held = 0;
  for (uint32_t i : e.ops().Ops(hb::ClassOf(t.records[u].kind), m)) {
    const Record& r = t.records[i];
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

}  // namespace

bool Rewritable(report::FindingKind k) {
  using report::FindingKind;
  switch (k) {
    case FindingKind::SendOnClosed: case FindingKind::RecvOnClosed:
    case FindingKind::NegativeWaitGroup: case FindingKind::UnlockOfUnlocked:
    case FindingKind::LockOrderDeadlock: case FindingKind::MixedDeadlock:
    case FindingKind::GoroutineLeak: case FindingKind::GlobalDeadlock:
    case FindingKind::DoubleLock:
      return true;
    default:
      return false;
  }
}

bool RewriteFinding(const trace::Trace& t, const std::string& trace_dir,
                    const hb::HappensBefore& hb, const hb::HappensBefore* weak,
                    const report::Finding& f, Rewrite* out, std::string* err) {
  using report::FindingKind;
  if (f.records.empty()) {
    *err = "the finding carries no trace records";
    return false;
  }
  for (uint32_t r : f.records) {
    if (r >= t.records.size()) {
      *err = "the finding's records are not of this trace";
      return false;
    }
  }
  if (!Rewritable(f.kind)) {
    *err = fmt::format("{} findings are not rewritten into schedules", report::KindName(f.kind));
    return false;
  }
  const hb::OpIndex& ops = hb.ops();
  Controlled c = BuildControlled(t);
  Plan plan;
  const hb::HappensBefore* e = &hb;
  switch (f.kind) {
    case FindingKind::SendOnClosed: {
      if (f.records.size() < 2) break;
      uint32_t send = f.records[0], close = f.records[1];
      BugOp cl{close, kChoiceFree, Expect::Completed, false};
      BugOp sd{ops.Owner(send), kChoiceFree, Expect::Closed, true};
      if (t.records[send].kind == Kind::SelectCase) {
        sd.choice = t.records[send].aux;
        sd.expect = Expect::SelectCaseClosed;
      }
      plan.bug = {cl, sd};
      plan.how = fmt::format("close at {}, then the send at {}", SiteText(t, t.records[close]),
                             SiteText(t, t.records[send]));
      break;
    }
    case FindingKind::RecvOnClosed: {
      // [rv, close, s]: the close comes before s delivers rv's value;
      // [rv, close, rc]: rc, which saw the channel closed, takes rv's value
      // first (after its sender), then the close, then rv. A receive's pre
      // clock does not include its partner's (happens_before.h), so rv's and
      // rc's pasts do not drag their recorded partners in.
      if (f.records.size() < 3) break;
      uint32_t rv = f.records[0], close = f.records[1], other = f.records[2];
      BugOp cl{close, kChoiceFree, Expect::Completed, false};
      BugOp zero = ChanBugOp(t, ops, rv, Expect::Closed, true);
      if (hb::DirOf(t.records[other]) == hb::ChanDir::Send) {
        plan.bug = {cl, zero};
        plan.how = fmt::format("close at {} before the send at {}, then the receive at {}",
                               SiteText(t, t.records[close]), SiteText(t, t.records[other]),
                               SiteText(t, t.records[rv]));
        break;
      }
      uint32_t s = hb.Partner(rv);
      if (s != hb::kNoRecord && ops.Owner(s) != ops.Owner(other)) {
        plan.bug.push_back(ChanBugOp(t, ops, s, Expect::Completed, false));
      }
      plan.bug.push_back(ChanBugOp(t, ops, other, Expect::Completed, true));
      plan.bug.push_back(cl);
      plan.bug.push_back(zero);
      plan.how = fmt::format("the receive at {} takes the value, then the close at {}, then the "
                             "receive at {} finds the channel closed",
                             SiteText(t, t.records[other]), SiteText(t, t.records[close]),
                             SiteText(t, t.records[rv]));
      break;
    }
    case FindingKind::GoroutineLeak:
    case FindingKind::GlobalDeadlock: {
      // Predicted by select_leak.cc: [x, q, alt?]. The select q takes the
      // other case alt (or its default), then x has no partner left. q's pre
      // clock does not include x (its recorded partner), so q's past does not
      // need x; x is listed after q and blocks for good.
      if (f.records.size() < 2 || t.records[f.records[1]].kind != Kind::Select) break;
      uint32_t x = f.records[0], q = f.records[1];
      BugOp sel{q, kChoiceDefault, Expect::Completed, true};
      if (f.records.size() >= 3) {
        uint32_t alt = f.records[2];
        if (t.records[alt].kind != Kind::SelectCase || ops.Owner(alt) != q) break;
        sel.choice = static_cast<int32_t>(t.records[alt].aux);
      }
      BugOp stuck = ChanBugOp(t, ops, x, Expect::Blocked, true);
      stuck.choice = kChoiceFree;
      plan.bug = {sel, stuck};
      plan.how = fmt::format("the select at {} takes {}, then the {} at {} has no partner",
                             SiteText(t, t.records[q]),
                             sel.choice == kChoiceDefault
                                 ? std::string("its default")
                                 : fmt::format("its {} case instead",
                                               hb::DirOf(t.records[f.records[2]]) ==
                                                       hb::ChanDir::Send
                                                   ? "send"
                                                   : "receive"),
                             hb::DirOf(t.records[x]) == hb::ChanDir::Send ? "send" : "receive",
                             SiteText(t, t.records[x]));
      // The operation that makes alt ready goes first when the run has one:
      // a close of its channel or an operation of the other direction
      // concurrent with q. Otherwise the forced select waits for it (until
      // the stall time), which a timer's channel needs anyway.
      if (f.records.size() >= 3) {
        uint32_t p = AltPartner(hb, q, f.records[2]);
        if (p != hb::kNoRecord) {
          Plan with = plan;
          with.bug.insert(with.bug.begin(), ChanBugOp(t, ops, p, Expect::Completed, false));
          Rewrite tried;
          std::string why;
          if (Linearize(t, trace_dir, hb, c, with, f, &tried, &why)) {
            *out = std::move(tried);
            return true;
          }
        }
      }
      break;
    }
    case FindingKind::NegativeWaitGroup: {
      uint32_t d = f.records[0];
      uint32_t w = ops.ObjectOf(d);
      if (w == hb::kNoObject) break;
      // The Done whose own past leaves the counter below zero: the reported
      // one first, then the other Dones of the WaitGroup; the strong
      // relation first, then the one without lock edges.
      std::vector<uint32_t> cands{d};
      for (uint32_t i : ops.Ops(hb::ObjClass::WaitGroup, w)) {
        const Record& r = t.records[i];
        if (r.kind == Kind::WgAdd && static_cast<int32_t>(r.val) < 0 && i != d) cands.push_back(i);
      }
      uint32_t pick = hb::kNoRecord;
      for (const hb::HappensBefore* x : {&hb, weak}) {
        if (x == nullptr || pick != hb::kNoRecord) continue;
        for (uint32_t cd : cands) {
          if (CounterAt(*x, cd) < 0) {
            pick = cd;
            e = x;
            break;
          }
        }
      }
      if (pick == hb::kNoRecord) {
        *err = "no Done's happens-before past leaves the counter below zero by itself";
        return false;
      }
      plan.weak = e != &hb;
      plan.bug = {BugOp{pick, kChoiceFree, Expect::Failed, true}};
      plan.how = fmt::format("the Done at {} runs before the Adds that balance it",
                             SiteText(t, t.records[pick]));
      break;
    }
    case FindingKind::UnlockOfUnlocked: {
      uint32_t u = f.records[0];
      if (HeldAt(hb, u) > 0 && weak != nullptr && HeldAt(*weak, u) <= 0) e = weak;
      plan.weak = e != &hb;
      plan.bug = {BugOp{u, kChoiceFree, Expect::Failed, true}};
      plan.how = fmt::format("the Unlock at {} runs before the Lock it releases",
                             SiteText(t, t.records[u]));
      break;
    }
    case FindingKind::LockOrderDeadlock: {
      if (weak == nullptr || f.records.size() < 4 || f.records.size() % 2 != 0) break;
      e = weak;
      plan.weak = true;
      std::vector<BugOp> acq, req;
      for (size_t i = 0; i + 1 < f.records.size(); i += 2) {
        req.push_back(BugOp{f.records[i], kChoiceFree, Expect::Blocked, true});
        acq.push_back(BugOp{f.records[i + 1], kChoiceFree, Expect::Completed, true});
      }
      for (const BugOp& b : acq) {
        if (!IsLockKind(t.records[b.rec].kind)) {
          *err = "a lock of the cycle was taken by TryLock, which a schedule does not order";
          return false;
        }
      }
      plan.bug = acq;
      plan.bug.insert(plan.bug.end(), req.begin(), req.end());
      plan.how = "each goroutine of the cycle takes its first lock, then each requests the next";
      break;
    }
    case FindingKind::DoubleLock: {
      // Predicted by recursive_rlock.cc: [r2, r1, w]. Without lock edges:
      // the first RLock r1, then the writer's Lock w (it waits for the
      // reader), then the second RLock r2 (it waits for the pending writer).
      if (weak == nullptr || f.records.size() < 3) break;
      uint32_t r2 = f.records[0], r1 = f.records[1], w = f.records[2];
      if (t.records[r2].kind != Kind::RLock || t.records[r1].kind != Kind::RLock ||
          t.records[w].kind != Kind::RWLock) {
        break;
      }
      e = weak;
      plan.weak = true;
      plan.bug = {BugOp{r1, kChoiceFree, Expect::Completed, true},
                  BugOp{w, kChoiceFree, Expect::Blocked, true},
                  BugOp{r2, kChoiceFree, Expect::Blocked, true}};
      plan.how = fmt::format("RLock at {}, then the writer's Lock at {}, then the RLock at {}",
                             SiteText(t, t.records[r1]), SiteText(t, t.records[w]),
                             SiteText(t, t.records[r2]));
      break;
    }
    case FindingKind::MixedDeadlock: {
      if (weak == nullptr || f.records.size() < 3) break;
      e = weak;
      plan.weak = true;
      uint32_t x = ops.Owner(f.records[0]), acquire = f.records[1], lb = f.records[2];
      plan.bug = {BugOp{acquire, kChoiceFree, Expect::Completed, true},
                  BugOp{x, kChoiceFree, Expect::Blocked, true},
                  BugOp{lb, kChoiceFree, Expect::Blocked, true}};
      if (t.records[f.records[0]].kind == Kind::SelectCase) {
        plan.bug[1].choice = t.records[f.records[0]].aux;
      }
      plan.how = fmt::format("the lock at {} is taken, the holder blocks at {}, the partner "
                             "blocks on the lock at {}", SiteText(t, t.records[acquire]),
                             SiteText(t, t.records[x]), SiteText(t, t.records[lb]));
      break;
    }
    default:
      break;
  }
  if (plan.bug.empty()) {
    *err = fmt::format("this {} finding does not carry the operations a rewrite needs",
                       report::KindName(f.kind));
    return false;
  }
  return Linearize(t, trace_dir, *e, c, plan, f, out, err);
}

std::string CheckExpectations(const std::vector<Expectation>& ex, const trace::Trace& t) {
  std::unordered_map<std::string, std::vector<uint32_t>> by_path;
  for (const auto& g : t.goroutines) {
    if (g.stable_id.empty()) continue;
    auto& v = by_path[g.stable_id];
    for (uint32_t i = g.begin; i < g.end; i++) {
      if (IsControlled(t.records[i].kind)) v.push_back(i);
    }
  }
  for (const Expectation& x : ex) {
    std::string what = fmt::format("goroutine {} operation #{} ({} at {})", x.goroutine, x.index,
                                   KindName(x.kind), x.site);
    auto it = by_path.find(x.goroutine);
    if (it == by_path.end() || x.index >= it->second.size()) return what + " did not happen";
    uint32_t i = it->second[x.index];
    const Record& r = t.records[i];
    if (r.kind != x.kind || (x.site != "?" && SiteText(t, r) != x.site)) {
      return fmt::format("{}: the replay did {} at {}", what, KindName(r.kind), SiteText(t, r));
    }
    switch (x.expect) {
      case Expect::Completed:
        if (r.tpost == 0) return what + " did not complete";
        break;
      case Expect::Blocked:
        if (r.tpost != 0) return what + " completed (no deadlock)";
        break;
      case Expect::Closed:
        if (!(r.flags & trace::kClosed)) return what + " did not find the channel closed";
        break;
      case Expect::Failed:
        if (!(r.flags & trace::kFailed)) return what + " did not fail";
        break;
      case Expect::SelectCaseClosed: {
        bool hit = (r.flags & trace::kClosed) != 0;
        for (uint32_t k = i + 1; k < t.records.size() && t.records[k].kind == Kind::SelectCase;
             k++) {
          if (t.records[k].aux == static_cast<uint32_t>(x.choice) &&
              (t.records[k].flags & trace::kClosed)) {
            hit = true;
          }
        }
        if (!hit) return what + ": the send case did not find the channel closed";
        break;
      }
    }
  }
  return "";
}

}  // namespace gordian::schedule
