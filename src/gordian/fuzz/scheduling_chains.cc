// This file implements the scheduling-chains strategy (scheduling_chains.h).
#include "gordian/fuzz/scheduling_chains.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/fuzz/chain_mutation.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/rewrite.h"

namespace gordian::fuzz {

using detect::BugOp;
using detect::Expect;
using trace::Kind;
using trace::ObjClass;

namespace {

// Whether x can take effect before y, which the run had first: other
// goroutines, unordered by happens-before; an operation ordered at its
// completion (WaitGroup.Wait) must not have waited for y.
bool CanGoFirst(const hb::HappensBefore& e, uint32_t x, uint32_t y) {
  if (e.ops().GidOf(x) == e.ops().GidOf(y) || e.Before(x, y) || e.Before(y, x)) return false;
  if (!trace::InfoOf(e.trace().records[x].kind).at_post) return true;
  return e.Knows(x, true, trace::Value(e.ops().GidOf(y))) < e.PostEpoch(y);
}

// The records a chain may hold on an object of class cls: controlled,
// completed, and on channels plain operations (a select's cases are the
// prediction-guided strategy's).
bool Chainable(const trace::Record& r, ObjClass cls) {
  if (!schedule::IsControlled(r.kind) || r.tpost == 0) return false;
  if (cls != ObjClass::Chan) return true;
  return r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv || r.kind == Kind::ChanClose;
}

}  // namespace

void SchedulingChains::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  const trace::Trace& t = run.t;
  const hb::OpIndex& ops = run.hb.ops();
  auto recorded_before = [&](uint32_t a, uint32_t b) {
    return schedule::OrderKey(t.records[a]) < schedule::OrderKey(t.records[b]);
  };
  ChainSpace space;
  space.recorded_before = recorded_before;
  space.can_precede = [&](uint32_t a, uint32_t b) {
    return recorded_before(a, b) || CanGoFirst(run.hb, a, b);
  };
  std::vector<Chain> seeds;  // the run's neighbours on an object, in its order
  for (ObjClass cls : {ObjClass::Chan, ObjClass::WaitGroup, ObjClass::Once, ObjClass::Cond}) {
    for (uint32_t o = 0; o < ops.Count(cls); o++) {
      std::vector<uint32_t> recs;
      for (uint32_t r : ops.Ops(cls, o)) {
        if (Chainable(t.records[r], cls)) recs.push_back(r);
      }
      std::sort(recs.begin(), recs.end(), recorded_before);
      for (size_t i = 0; i < recs.size(); i++) {
        for (size_t j = i + 1; j < recs.size() && j <= i + peer_window; j++) {
          if (!CanGoFirst(run.hb, recs[j], recs[i])) continue;
          space.peers[recs[i]].push_back(recs[j]);
          space.peers[recs[j]].push_back(recs[i]);
          if (j == i + 1) seeds.push_back({recs[i], recs[j]});
        }
      }
    }
  }
  if (seeds.empty()) return;
  for (auto& [op, peers] : space.peers) std::sort(peers.begin(), peers.end());
  std::set<std::string> keys;  // made from this run
  size_t made = 0;
  for (size_t a = 0; a < attempts && made < max_per_run; a++) {
    Chain c = seeds[run.rng.Below(seeds.size())];
    size_t n = 1 + run.rng.Below(3);
    for (size_t k = 0; k < n; k++) {
      MutateChain(space, kChainMutations[run.rng.Below(std::size(kChainMutations))], run.rng, &c);
    }
    if (!ChainFeasible(space, c) || !ChainReorders(space, c)) continue;
    std::string key = "chain";
    for (size_t i = 0; i < c.size(); i++) {
      key += fmt::format("{}{} {}", i == 0 ? " " : " then ",
                         trace::InfoOf(t.records[c[i]].kind).sched,
                         schedule::SiteText(t, t.records[c[i]]));
    }
    if (!keys.insert(key).second) continue;
    detect::Plan plan;
    for (uint32_t r : c) plan.bug.push_back(BugOp{r, detect::kChoiceRecorded, Expect::Completed, false});
    schedule::Rewrite rw;
    std::string err;
    if (!schedule::RewritePlan(t, run.trace_dir, run.hb, plan, "fuzz " + key, &rw, &err)) continue;
    made++;
    out->push_back(Candidate{std::move(rw.schedule), key, Name()});
  }
}

}  // namespace gordian::fuzz
