// This file implements the pair-flip strategy (strategies.h).
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/fuzz/can_go_first.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/rewrite/rewrite.h"

namespace gordian::fuzz {

using detect::BugOp;
using detect::Expect;
using trace::ObjClass;

void PairFlip::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  const trace::Trace& t = run.t;
  const hb::OpIndex& ops = run.hb.ops();
  std::set<std::string> keys;  // tried in this run (loops repeat pairs)
  size_t made = 0;
  for (ObjClass cls : {ObjClass::Once, ObjClass::WaitGroup, ObjClass::Cond}) {
    for (uint32_t o = 0; o < ops.Count(cls); o++) {
      std::vector<uint32_t> recs;
      for (uint32_t r : ops.Ops(cls, o)) {
        if (Reorderable(t.records[r], cls)) recs.push_back(r);
      }
      std::sort(recs.begin(), recs.end(), [&](uint32_t a, uint32_t b) {
        return schedule::OrderKey(t.records[a]) < schedule::OrderKey(t.records[b]);
      });
      for (size_t i = 1; i < recs.size() && made < max_per_run; i++) {
        uint32_t a = recs[i - 1], b = recs[i];
        if (!CanGoFirst(run.hb, b, a)) continue;
        std::string key = fmt::format("flip {} {} before {} {}",
                                      trace::InfoOf(t.records[b].kind).sched,
                                      schedule::SiteText(t, t.records[b]),
                                      trace::InfoOf(t.records[a].kind).sched,
                                      schedule::SiteText(t, t.records[a]));
        if (!keys.insert(key).second) continue;
        detect::Plan plan;
        plan.bug = {BugOp{b, detect::kChoiceRecorded, Expect::Completed, false},
                    BugOp{a, detect::kChoiceRecorded, Expect::Completed, false}};
        rewrite::Rewrite rw;
        std::string err;
        if (!rewrite::RewritePlan(t, run.trace_dir, run.hb, plan, "fuzz " + key, &rw, &err)) {
          continue;
        }
        made++;
        out->push_back(Candidate{std::move(rw.schedule), key, Name()});
      }
    }
  }
}

}  // namespace gordian::fuzz
