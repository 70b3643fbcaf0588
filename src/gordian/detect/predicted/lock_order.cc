// This file implements the lock-order deadlock prediction (ADVOCATE P05,
// after UNDEAD/GoodLock): goroutines that take the same locks in different
// orders, so that another schedule deadlocks with each holding a lock the
// next one waits for.
//
// Rule: a lock dependency (g, H, l, r) says goroutine g requested lock l at
// record r while holding the locks H (each with the record that took it).
// A cycle d1..dk (k = 2..4) is reported when
//   1. the goroutines are distinct;
//   2. di holds the lock d(i+1) requests (l_i in H_(i+1) ... closing at d1),
//      and the hold and the request conflict (not both read locks);
//   3. the held sets are pairwise disjoint, up to read/read: a lock held by
//      two of them would be a gate that serialises them;
//   4. the requests are pairwise concurrent in the happens-before relation
//      WITHOUT unlock -> lock edges (the observed order of critical sections
//      is exactly what another schedule may change; channel, WaitGroup,
//      spawn and other edges still order them).
// Soundness: with 4, some schedule brings every goroutine to its request
// with its held locks taken (their acquisitions precede the requests in
// program order and are not ordered after the other goroutines' requests
// except through locks, which 3 rules out); then every request waits for
// the next goroutine: a deadlock. Remaining false positives are orders kept
// through unrecorded shared memory or data-dependent control flow.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"

namespace gordian::detect {

namespace {

struct Dep {
  GoroutineIndex g{0};
  uint64_t lock = 0;
  bool reader = false;
  std::vector<HeldLock> held;       // of the first instance (the same locks in all)
  std::vector<uint32_t> requests;   // instances (request records), at most kInstances
  std::vector<std::vector<HeldLock>> held_at;  // per instance: who took the held locks
};
constexpr size_t kInstances = 4;
constexpr size_t kMaxCycle = 4;
constexpr size_t kMaxReports = 64;

const HeldLock* Holds(const Dep& d, uint64_t lock) {
  for (const HeldLock& h : d.held) {
    if (h.key == lock) return &h;
  }
  return nullptr;
}

bool Gated(const Dep& a, const Dep& b) {
  for (const HeldLock& x : a.held) {
    for (const HeldLock& y : b.held) {
      if (x.key == y.key && !(x.reader && y.reader)) return true;
    }
  }
  return false;
}

class CycleSearch {
 public:
  CycleSearch(PredictContext& c, std::vector<Dep>& deps) : c_(c), deps_(deps) {
    for (uint32_t k = 0; k < deps_.size(); ++k) {
      for (const HeldLock& h : deps_[k].held) out_[h.key].push_back(k);
    }
  }

  void Run() {
    std::vector<uint64_t> locks;
    for (const auto& [l, v] : out_) locks.push_back(l);
    for (uint64_t s : locks) {
      start_ = s;
      Extend(s);
      if (reports_ >= kMaxReports || c_.exhausted()) return;
    }
  }

 private:
  // path_ holds deps d1..dm; d1 holds start_, dm requests `at`.
  void Extend(uint64_t at) {
    auto it = out_.find(at);
    if (it == out_.end()) return;
    for (uint32_t k : it->second) {
      if (!c_.Spend(1) || reports_ >= kMaxReports) return;
      const Dep& d = deps_[k];
      if (d.lock != start_ && d.lock < start_) continue;  // cycles start at their smallest lock
      bool ok = true;
      for (uint32_t p : path_) {
        const Dep& e = deps_[p];
        if (e.g == d.g || Gated(e, d) || e.lock == d.lock) ok = false;
      }
      if (!ok) continue;
      if (!path_.empty()) {
        // The previous dep requests `at`, which d holds: they must conflict.
        const Dep& prev = deps_[path_.back()];
        const HeldLock* h = Holds(d, at);
        if (h == nullptr || (h->reader && prev.reader)) continue;
      }
      path_.push_back(k);
      if (d.lock == start_) {
        if (path_.size() >= 2) {
          const HeldLock* h = Holds(deps_[path_[0]], start_);
          if (h != nullptr && !(h->reader && d.reader)) Check();
        }
      } else if (path_.size() < kMaxCycle) {
        Extend(d.lock);
      }
      path_.pop_back();
    }
  }

  // Picks one request instance per dep such that all are pairwise
  // concurrent without lock edges; reports the cycle if there is one.
  void Check() {
    const hb::HappensBefore* weak = c_.Weak();
    if (weak == nullptr) return;
    // A cycle whose requests all blocked for good did occur: that is the
    // occurred detectors' finding, not a prediction.
    bool all_blocked = true;
    for (uint32_t k : path_) {
      for (uint32_t r : deps_[k].requests) all_blocked &= c_.rec(r).tpost == 0;
    }
    if (all_blocked) return;
    std::vector<uint32_t> pick(path_.size()), inst(path_.size());
    if (!Pick(*weak, 0, &pick, &inst)) return;
    Report(pick, inst);
  }

  bool Pick(const hb::HappensBefore& weak, size_t i, std::vector<uint32_t>* pick,
            std::vector<uint32_t>* inst) {
    if (i == path_.size()) return true;
    const Dep& d = deps_[path_[i]];
    for (uint32_t n = 0; n < d.requests.size(); ++n) {
      uint32_t r = d.requests[n];
      bool ok = true;
      for (size_t j = 0; j < i && ok; ++j) ok = weak.Concurrent((*pick)[j], r);
      if (!ok) continue;
      (*pick)[i] = r;
      (*inst)[i] = n;
      if (Pick(weak, i + 1, pick, inst)) return true;
    }
    return false;
  }

  void Report(const std::vector<uint32_t>& pick, const std::vector<uint32_t>& inst) {
    ++reports_;
    const size_t k = path_.size();
    report::Finding f = c_.NewFinding(report::FindingKind::LockOrderDeadlock, pick[0], report::Role::Lock);
    std::string parts;
    for (size_t i = 0; i < k; ++i) {
      const Dep& d = deps_[path_[i]];
      // d holds the lock the previous dep requests (d1 holds start_).
      uint64_t holds = i == 0 ? start_ : deps_[path_[i - 1]].lock;
      const HeldLock* h = nullptr;
      for (const HeldLock& x : d.held_at[inst[i]]) {
        if (x.key == holds) h = &x;
      }
      if (i > 0) c_.AddLocation(&f, pick[i], report::Role::Lock);
      c_.AddLocation(&f, h->acquire, report::Role::Lock);
      c_.AddStep(&f, h->acquire, report::Role::Lock, "takes a lock");
      if (!parts.empty()) parts += "; ";
      parts += fmt::format("goroutine {} holds the lock taken at {} and waits at {}",
                           c_.Index().StableId(d.g), BaseName(c_.Where(h->acquire)),
                           BaseName(c_.Where(pick[i])));
    }
    for (size_t i = 0; i < k; ++i) {
      c_.AddStep(&f, pick[i], report::Role::Lock, "waits for the lock the next goroutine holds",
                 /*blocks=*/true);
    }
    f.message = fmt::format("lock-order inversion: {}; another schedule deadlocks", parts);
    // The same cycle found from another instance or rotation is one bug.
    std::vector<std::string> sites;
    for (const report::Location& l : f.locations) sites.push_back(fmt::format("{}:{}", l.file, l.line));
    std::sort(sites.begin(), sites.end());
    f.dedup_key = "lock-order-deadlock";
    for (const std::string& s : sites) f.dedup_key += "|" + s;
    c_.Emit(std::move(f));
  }

  PredictContext& c_;
  std::vector<Dep>& deps_;
  std::map<uint64_t, std::vector<uint32_t>> out_;  // held lock -> deps holding it
  std::vector<uint32_t> path_;
  uint64_t start_ = 0;
  size_t reports_ = 0;
};

}  // namespace

namespace {

// The lock dependencies of every goroutine, merged per (goroutine, lock,
// held set), each with its first kInstances requests.
std::vector<Dep> LockDependencies(const PredictContext& c) {
  std::vector<Dep> deps;
  std::map<std::tuple<GoroutineIndex, uint64_t, bool, std::vector<uint64_t>>, uint32_t> seen;
  std::vector<HeldLock> held;
  std::vector<uint64_t> keys;
  for (GoroutineIndex g : c.Goroutines()) {
    WalkLocksets(c, g, &held, [&](uint32_t i, const std::vector<HeldLock>& h) {
      if (h.empty()) return;
      const trace::Record& r = c.rec(i);
      if (r.kind != Kind::MutexLock && r.kind != Kind::RWLock && r.kind != Kind::RLock) return;
      uint32_t d = c.ops.ObjectOf(i);
      if (d == hb::kNoObject) return;
      uint64_t lock = LockKey(hb::ClassOf(r.kind), d);
      keys.clear();
      for (const HeldLock& x : h) {
        if (x.key == lock) return;  // re-lock while held: a double lock, not an order
        keys.push_back((x.key << 1) | x.reader);
      }
      std::sort(keys.begin(), keys.end());
      bool reader = r.kind == Kind::RLock;
      auto [it, fresh] = seen.try_emplace({g, lock, reader, keys}, uint32_t(deps.size()));
      if (fresh) {
        Dep dep;
        dep.g = g;
        dep.lock = lock;
        dep.reader = reader;
        dep.held = h;
        deps.push_back(std::move(dep));
      }
      Dep& dep = deps[it->second];
      if (dep.requests.size() < kInstances) {
        dep.requests.push_back(i);
        dep.held_at.push_back(h);
      }
    });
  }
  return deps;
}

}  // namespace

void MarkLockOrderRequests(const PredictContext& c, hb::RecordMask* keep) {
  if (c.NoLocks()) return;
  for (const Dep& d : LockDependencies(c)) {
    for (uint32_t r : d.requests) keep->Set(r);
  }
}

void PredictLockOrder(PredictContext& c) {
  if (c.NoLocks()) return;  // no lock, no lock order
  std::vector<Dep> deps = LockDependencies(c);
  if (deps.size() < 2) return;
  CycleSearch(c, deps).Run();
}

// ---- Rewrite (rewrite/rewrite.h)
// [req0, acq0, req1, acq1, ...] -> with the relation without unlock->lock
// edges: past, every goroutine takes its first lock (acq_i), then each
// requests the next one (req_i). Each request waits for a lock another
// member of the cycle holds: a deadlock; expected: acq_i completed, req_i
// never did.
namespace {

bool PlanLockOrder(const PlanInput& in, std::vector<Plan>* plans, std::string* err) {
  const report::Finding& f = in.f;
  if (in.weak == nullptr || f.records.size() < 4 || f.records.size() % 2 != 0) return true;
  std::vector<BugOp> acq, req;
  for (size_t i = 0; i + 1 < f.records.size(); i += 2) {
    req.push_back(BugOp{f.records[i], kChoiceRecorded, Expect::Blocked, true});
    acq.push_back(BugOp{f.records[i + 1], kChoiceRecorded, Expect::Completed, true});
  }
  for (const BugOp& b : acq) {
    Kind k = in.t.records[b.rec].kind;
    if (k != Kind::MutexLock && k != Kind::RWLock && k != Kind::RLock) {
      *err = "a lock of the cycle was taken by TryLock, which a schedule does not order";
      return false;
    }
  }
  Plan p;
  p.weak = true;
  p.bug = acq;
  p.bug.insert(p.bug.end(), req.begin(), req.end());
  p.how = "each goroutine of the cycle takes its first lock, then each requests the next";
  plans->push_back(std::move(p));
  return true;
}

}  // namespace

extern const RewriteSpec kLockOrderRewrite{PlanLockOrder, true};

}  // namespace gordian::detect
