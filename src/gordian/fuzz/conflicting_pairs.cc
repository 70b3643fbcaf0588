// This file implements the conflicting-pairs strategy (strategies.h):
// which pairs of a run conflict, the reversal of each once per campaign,
// and the deeper reversals of a run that followed one and added coverage.
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <memory>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/fuzz/can_go_first.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/goroutine_ops.h"
#include "gordian/rewrite/rewrite.h"

namespace gordian::fuzz {

using detect::BugOp;
using detect::Expect;
using trace::Kind;
using trace::ObjClass;

namespace {

// A pair of run t: first overtakes second (which the run had first), on
// object obj (the records' object id) of class cls.
struct Pair {
  uint32_t first, second;
  ObjClass cls;
  uint32_t obj;
  bool lock;  // ordered only by the lock: linearized with the engine without lock edges
  std::string key;
};

// The key of one reversal: the lock-order and pair-flip strategies' own
// words for the same schedule, so that the campaign runs it once whoever
// proposes it first.
std::string PairKey(const trace::Trace& t, uint32_t first, uint32_t second, bool lock) {
  const trace::Record& f = t.records[first];
  const trace::Record& s = t.records[second];
  if (lock) {
    return fmt::format("lock {} before {}", schedule::SiteText(t, f), schedule::SiteText(t, s));
  }
  return fmt::format("flip {} {} before {} {}", trace::InfoOf(f.kind).sched,
                     schedule::SiteText(t, f), trace::InfoOf(s.kind).sched,
                     schedule::SiteText(t, s));
}

// The key of a schedule that reverses several pairs: one pair's key
// itself, several sorted, so that the same set reached in two orders is
// one.
std::string SetKey(std::vector<std::string> keys) {
  if (keys.size() == 1) return keys[0];
  std::sort(keys.begin(), keys.end());
  std::string k = "pairs";
  for (size_t i = 0; i < keys.size(); i++) k += (i == 0 ? " " : " + ") + keys[i];
  return k;
}

// The conflicting pairs of run (one per key), in the order the run had
// their earlier operations: each operation with the next `window` on its
// object, for the first per_site executions of its site.
std::vector<Pair> FindPairs(const AnalysedRun& run, size_t window, size_t per_site) {
  const trace::Trace& t = run.t;
  const hb::OpIndex& ops = run.hb.ops();
  std::vector<Pair> pairs;
  std::unordered_set<std::string> keys;
  std::unordered_map<uint32_t, size_t> looked;  // site -> its executions paired so far
  for (ObjClass cls : {ObjClass::Chan, ObjClass::Mutex, ObjClass::RWMutex, ObjClass::WaitGroup,
                       ObjClass::Once, ObjClass::Cond}) {
    bool lock = cls == ObjClass::Mutex || cls == ObjClass::RWMutex;
    for (uint32_t o = 0; o < ops.Count(cls); o++) {
      std::vector<uint32_t> recs;
      for (uint32_t r : ops.Ops(cls, o)) {
        if (Reorderable(t.records[r], cls)) recs.push_back(r);
      }
      if (recs.size() < 2) continue;
      std::sort(recs.begin(), recs.end(), [&](uint32_t a, uint32_t b) {
        return schedule::OrderKey(t.records[a]) < schedule::OrderKey(t.records[b]);
      });
      for (size_t i = 0; i < recs.size(); i++) {
        uint32_t second = recs[i];
        if (looked[t.records[second].site]++ >= per_site) continue;
        for (size_t j = i + 1; j < recs.size() && j <= i + window; j++) {
          uint32_t first = recs[j];
          if (ops.GidOf(first) == ops.GidOf(second)) continue;
          if (lock && t.records[first].kind == Kind::RLock && t.records[second].kind == Kind::RLock) {
            continue;  // two readers do not exclude each other
          }
          // Locks: the engine without lock edges, built only now that two
          // goroutines' acquisitions are to be compared.
          const hb::HappensBefore* e = lock ? run.Weak() : &run.hb;
          if (e == nullptr || !CanGoFirst(*e, first, second)) continue;
          std::string key = PairKey(t, first, second, lock);
          if (!keys.insert(key).second) continue;
          pairs.push_back(Pair{first, second, cls, t.records[second].obj, lock, std::move(key)});
        }
      }
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [&](const Pair& a, const Pair& b) {
    return schedule::OrderKey(t.records[a.second]) < schedule::OrderKey(t.records[b.second]);
  });
  return pairs;
}

}  // namespace

void ConflictingPairs::Begin() {
  tried_.clear();
  reversals_.clear();
}

void ConflictingPairs::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  const trace::Trace& t = run.t;
  std::vector<Pair> pairs = FindPairs(run, window, per_site);
  const schedule::GoroutineOps controlled(t);

  // The reversals of the schedule this run followed, found again in it (a
  // schedule with the same key is the same schedule, whoever proposed it).
  std::vector<Pair> kept;
  auto was = run.ran == nullptr ? reversals_.end() : reversals_.find(run.ran->key);
  if (run.added_coverage && was != reversals_.end() && was->second.size() < max_depth) {
    auto find = [&](const Where& w) -> uint32_t {
      std::span<const uint32_t> recs = controlled.Of(w.path);
      if (w.index >= recs.size()) return hb::kNoRecord;
      const trace::Record& r = t.records[recs[w.index]];
      if (static_cast<uint8_t>(r.kind) != w.kind || !schedule::SiteIs(t, r, w.site)) {
        return hb::kNoRecord;
      }
      return recs[w.index];
    };
    for (const Reversal& rv : was->second) {
      uint32_t f = find(rv.first), s = find(rv.second);
      if (f == hb::kNoRecord || s == hb::kNoRecord) {
        kept.clear();  // the run took another path: nothing to deepen
        break;
      }
      trace::ObjClass cls = trace::ClassOf(t.records[f].kind);
      bool lock = cls == ObjClass::Mutex || cls == ObjClass::RWMutex;
      kept.push_back(Pair{f, s, cls, t.records[f].obj, lock, rv.key});
    }
  }

  // Where each operation of a pair is, for the reversals_ of what is
  // proposed: its goroutine's stable id and its index there.
  std::unordered_map<uint32_t, std::pair<std::string_view, uint32_t>> where;
  {
    std::unordered_set<uint32_t> wanted;
    for (const std::vector<Pair>* ps : {&pairs, &kept}) {
      for (const Pair& p : *ps) wanted.insert({p.first, p.second});
    }
    for (size_t g = 0; g < controlled.goroutines() && !wanted.empty(); g++) {
      if (controlled.Path(g).empty()) continue;
      std::span<const uint32_t> recs = controlled.Ops(g);
      for (uint32_t i = 0; i < recs.size(); i++) {
        if (wanted.count(recs[i]) > 0) where[recs[i]] = {controlled.Path(g), i};
      }
    }
  }
  auto where_of = [&](uint32_t r, Where* w) {
    auto it = where.find(r);
    if (it == where.end()) return false;
    *w = Where{std::string(it->second.first), it->second.second,
               static_cast<uint8_t>(t.records[r].kind), schedule::SiteText(t, t.records[r])};
    return true;
  };

  // Proposes the reversal of every pair of set, in the run's order of
  // their earlier operations.
  auto propose = [&](std::vector<Pair> set) {
    std::vector<std::string> keys;
    for (const Pair& p : set) keys.push_back(p.key);
    std::string key = SetKey(keys);
    if (tried_.count(key) > 0) return false;
    std::sort(set.begin(), set.end(), [&](const Pair& a, const Pair& b) {
      return schedule::OrderKey(t.records[std::min(a.first, a.second)]) <
             schedule::OrderKey(t.records[std::min(b.first, b.second)]);
    });
    detect::Plan plan;
    std::vector<Reversal> reversals;
    for (const Pair& p : set) {
      plan.weak = plan.weak || p.lock;
      plan.bug.push_back(BugOp{p.first, detect::kChoiceRecorded, Expect::Completed, false});
      plan.bug.push_back(BugOp{p.second, detect::kChoiceRecorded, Expect::Completed, false});
      Reversal rv;
      if (!where_of(p.first, &rv.first) || !where_of(p.second, &rv.second)) return false;
      rv.key = p.key;
      reversals.push_back(std::move(rv));
    }
    const hb::HappensBefore* e = plan.weak ? run.Weak() : &run.hb;
    if (e == nullptr) return false;
    tried_.insert(key);
    rewrite::Rewrite rw;
    std::string err;
    if (!rewrite::RewritePlan(t, run.trace_dir, *e, plan, "fuzz " + key, &rw, &err)) return false;
    reversals_[key] = std::move(reversals);
    out->push_back(Candidate{std::move(rw.schedule), key, Name()});
    return true;
  };

  // Deeper first: a reversal that added coverage, with one more pair on
  // another object.
  size_t made = 0;
  for (size_t i = 0; !kept.empty() && i < pairs.size() && made < max_from_kept; i++) {
    const Pair& p = pairs[i];
    bool same_object = std::any_of(kept.begin(), kept.end(), [&](const Pair& k) {
      return k.cls == p.cls && k.obj == p.obj;
    });
    if (same_object) continue;
    std::vector<Pair> set = kept;
    set.push_back(p);
    made += propose(std::move(set));
  }
  made = 0;
  for (size_t i = 0; i < pairs.size() && made < max_per_run; i++) made += propose({pairs[i]});
}

}  // namespace gordian::fuzz
