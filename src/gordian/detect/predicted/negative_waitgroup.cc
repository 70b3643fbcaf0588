// This file implements the negative-WaitGroup prediction (ADVOCATE P03):
// a Done that, in another schedule of the run, comes before the Add it
// balances, so that the counter goes negative and Add panics with
// "sync: negative WaitGroup counter".
//
// Rule and soundness: counter_matching.h. Increments are the Adds with a
// positive delta (weight = delta), decrements the Dones and negative Adds
// (weight = -delta); the counter can go negative in some schedule exactly
// when the decrements cannot all be matched to increments that happen
// before them. The typical bug: `go func() { defer wg.Done(); ... }()`
// followed by `wg.Add(1)`, or Add inside the spawned goroutine racing with
// a Done of another. WaitGroups that went negative in the run are left to
// the occurred detector.
#include <fmt/format.h>

#include "gordian/detect/predicted/counter_matching.h"
#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

void PredictNegativeWaitGroup(PredictContext& c) {
  const uint32_t n = c.ops.Count(ObjClass::WaitGroup);
  std::vector<CounterOp> adds, dones;
  for (uint32_t w = 0; w < n; ++w) {
    if (c.Unclocked(ObjClass::WaitGroup, w)) continue;
    adds.clear();
    dones.clear();
    bool failed = false;
    for (uint32_t i : c.ops.Ops(ObjClass::WaitGroup, w)) {
      const trace::Record& r = c.rec(i);
      if (r.kind != Kind::WgAdd) continue;
      if (r.flags & trace::kFailed) failed = true;
      int32_t delta = int32_t(r.val);
      if (delta > 0) adds.push_back({i, uint64_t(delta)});
      else if (delta < 0) dones.push_back({i, uint64_t(-int64_t(delta))});
    }
    if (failed || dones.empty()) continue;
    uint64_t budget = c.opt.work_limit / 4;
    if (!c.Spend(dones.size() + adds.size())) return;
    CounterResult m = MatchCounter(c.hb, adds, dones, budget);
    if (m.safe || m.gave_up) continue;
    uint32_t d = m.unmatched;
    uint32_t add = ConcurrentAdd(c.hb, adds, d);
    if (add == hb::kNoRecord) {
      c.Report(report::FindingKind::NegativeWaitGroup, {{d, report::Role::Done}},
               fmt::format("Done at {} is not ordered after enough Adds: another schedule "
                           "makes the WaitGroup counter negative (panic)",
                           BaseName(c.Where(d))),
               {});
      continue;
    }
    c.Report(report::FindingKind::NegativeWaitGroup,
             {{d, report::Role::Done}, {add, report::Role::Add}},
             fmt::format("Done at {} can run before the Add at {} it balances: another "
                         "schedule makes the WaitGroup counter negative (panic)",
                         BaseName(c.Where(d)), BaseName(c.Where(add))),
             {{d, report::Role::Done, "Done runs first: counter < 0, panic"},
              {add, report::Role::Add, "Add comes too late"}});
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [done, add?] -> the Done d of the WaitGroup whose happens-before past
// (with the strong relation, else the one without lock edges) adds up to
// less than its delta: past(d), then d. Followed, the counter is the sum
// over the past plus d's delta < 0: panic; expected: d has kFailed.
namespace {

// The WaitGroup counter of the past of done (under e) plus done's delta.
int64_t CounterAt(const hb::HappensBefore& e, uint32_t done) {
  const trace::Trace& t = e.trace();
  uint32_t w = e.ops().ObjectOf(done);
  if (w == hb::kNoObject) return 0;
  int64_t sum = static_cast<int32_t>(t.records[done].val);
  for (uint32_t i : e.ops().Ops(ObjClass::WaitGroup, w)) {
    const trace::Record& r = t.records[i];
    if (r.kind != Kind::WgAdd || i == done) continue;
    if (e.Before(i, done)) sum += static_cast<int32_t>(r.val);
  }
  return sum;
}

bool PlanNegativeWaitGroup(const PlanInput& in, std::vector<Plan>* plans, std::string* err) {
  const trace::Trace& t = in.t;
  const hb::OpIndex& ops = in.hb.ops();
  uint32_t d = in.f.records[0];
  uint32_t w = ops.ObjectOf(d);
  if (w == hb::kNoObject) return true;
  // The Done whose own past leaves the counter below zero: the reported
  // one first, then the other Dones of the WaitGroup; the strong
  // relation first, then the one without lock edges.
  std::vector<uint32_t> cands{d};
  for (uint32_t i : ops.Ops(ObjClass::WaitGroup, w)) {
    const trace::Record& r = t.records[i];
    if (r.kind == Kind::WgAdd && static_cast<int32_t>(r.val) < 0 && i != d) cands.push_back(i);
  }
  uint32_t pick = hb::kNoRecord;
  const hb::HappensBefore* e = &in.hb;
  for (const hb::HappensBefore* x : {&in.hb, in.weak}) {
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
  plans->push_back({e != &in.hb, {BugOp{pick, kChoiceRecorded, Expect::Failed, true}},
                    fmt::format("the Done at {} runs before the Adds that balance it",
                                SiteAt(t, pick))});
  return true;
}

}  // namespace

extern const RewriteSpec kNegativeWaitGroupRewrite{PlanNegativeWaitGroup, true};

}  // namespace gordian::detect
