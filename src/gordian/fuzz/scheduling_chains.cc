// This file implements the scheduling-chains strategy (strategies.h).
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <set>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/fuzz/can_go_first.h"
#include "gordian/fuzz/chain_mutation.h"
#include "gordian/schedule/goroutine_ops.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/rewrite/rewrite.h"

namespace gordian::fuzz {

using detect::BugOp;
using detect::Expect;
using trace::ObjClass;

namespace {

// The chain of schedule s ("chain" lines) as records of run t, which
// followed s: each operation of the chain (goroutine path and index) found
// in t, of the kind and at the site s's prefix has for it. Empty when one
// is not there (the program took another path) or s has no chain.
Chain ChainOfSchedule(const schedule::Schedule& s, const trace::Trace& t,
                      const schedule::GoroutineOps& controlled) {
  Chain c;
  for (const schedule::ChainOp& co : s.chain) {
    if (co.g >= s.goroutines.size()) return {};
    auto op = std::find_if(s.ops.begin(), s.ops.end(), [&](const schedule::Op& o) {
      return o.g == co.g && o.index == co.index;
    });
    std::span<const uint32_t> recs = controlled.Of(s.goroutines[co.g]);
    if (op == s.ops.end() || co.index >= recs.size()) return {};
    uint32_t r = recs[co.index];
    if (t.records[r].kind != op->kind || !schedule::SiteIs(t, t.records[r], op->site)) return {};
    c.push_back(r);
  }
  return c;
}

// The "chain" lines of rewrite s, made from chain c of run t: each
// record's goroutine (its spawn path among s's goroutines) and its index
// among the goroutine's controlled operations. False when one has no
// stable goroutine in s.
bool ChainLines(const Chain& c, const std::unordered_map<uint32_t, std::pair<std::string, uint32_t>>& where,
                schedule::Schedule* s) {
  for (uint32_t r : c) {
    auto w = where.find(r);
    if (w == where.end()) return false;
    auto g = std::find(s->goroutines.begin(), s->goroutines.end(), w->second.first);
    if (g == s->goroutines.end()) return false;
    s->chain.push_back(schedule::ChainOp{static_cast<uint32_t>(g - s->goroutines.begin()), w->second.second});
  }
  return true;
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
        if (Reorderable(t.records[r], cls)) recs.push_back(r);
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
  // The chain of the schedule this run followed, when that schedule added
  // coverage (now, or in an earlier campaign: the corpus): GoPie keeps
  // such chains and mutates them again, so a chain grows from one that
  // reached new pairs instead of starting from the run's neighbours.
  const schedule::GoroutineOps controlled(t);
  Chain kept;
  if (run.RanIsKept() && !run.ran->schedule.chain.empty()) {
    kept = ChainOfSchedule(run.ran->schedule, t, controlled);
  }
  if (seeds.empty() && kept.empty()) return;
  for (auto& [op, peers] : space.peers) std::sort(peers.begin(), peers.end());
  std::unordered_map<uint32_t, std::pair<std::string, uint32_t>> where;  // record -> (path, index)
  for (size_t g = 0; g < controlled.goroutines(); g++) {
    if (controlled.Path(g).empty()) continue;
    std::span<const uint32_t> recs = controlled.Ops(g);
    for (uint32_t i = 0; i < recs.size(); i++) where[recs[i]] = {std::string(controlled.Path(g)), i};
  }
  std::set<std::string> keys;  // made from this run
  // First the kept chain's mutations (up to max_from_kept), then new
  // chains from the run's neighbours (up to max_per_run).
  auto propose = [&](Chain c, size_t mutations) {
    for (size_t k = 0; k < mutations; k++) {
      MutateChain(space, kChainMutations[run.rng.Below(std::size(kChainMutations))], run.rng, &c);
    }
    if (!ChainFeasible(space, c) || !ChainReorders(space, c)) return false;
    std::string key = "chain";
    for (size_t i = 0; i < c.size(); i++) {
      key += fmt::format("{}{} {}", i == 0 ? " " : " then ",
                         trace::InfoOf(t.records[c[i]].kind).sched,
                         schedule::SiteText(t, t.records[c[i]]));
    }
    if (!keys.insert(key).second) return false;
    detect::Plan plan;
    for (uint32_t r : c) plan.bug.push_back(BugOp{r, detect::kChoiceRecorded, Expect::Completed, false});
    rewrite::Rewrite rw;
    std::string err;
    if (!rewrite::RewritePlan(t, run.trace_dir, run.hb, plan, "fuzz " + key, &rw, &err)) return false;
    if (!ChainLines(c, where, &rw.schedule)) rw.schedule.chain.clear();
    out->push_back(Candidate{std::move(rw.schedule), key, Name()});
    return true;
  };
  size_t made = 0;
  for (size_t a = 0; !kept.empty() && a < attempts && made < max_from_kept; a++) {
    made += propose(kept, 1 + run.rng.Below(3));
  }
  made = 0;
  for (size_t a = 0; !seeds.empty() && a < attempts && made < max_per_run; a++) {
    Chain c = seeds[run.rng.Below(seeds.size())];
    made += propose(std::move(c), 1 + run.rng.Below(3));
  }
}

}  // namespace gordian::fuzz
