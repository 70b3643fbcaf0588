// This file implements the prediction-guided strategy (strategies.h).
#include "gordian/fuzz/strategies.h"

#include <algorithm>
#include <set>
#include <span>
#include <unordered_map>

#include <fmt/format.h>

#include "gordian/detect/predict.h"
#include "gordian/detect/rewrite_plan.h"
#include "gordian/detect/select_default.h"
#include "gordian/report/dedup.h"
#include "gordian/schedule/goroutine_ops.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/rewrite/rewrite.h"

namespace gordian::fuzz {

using detect::BugOp;
using detect::Expect;
using detect::Plan;
using trace::Kind;
using trace::ObjClass;

namespace {

class Proposer {
 public:
  Proposer(const AnalysedRun& run, const char* name, size_t limit, std::vector<Candidate>* out)
      : run_(run), t_(run.t), ops_(run.hb.ops()), name_(name), limit_(limit), out_(out),
        controlled_(run.t) {}

  void PredictedBugs();
  void Channels();
  void Locks();

 private:
  std::string Site(uint32_t r) const { return schedule::SiteText(t_, t_.records[r]); }
  bool Full() const { return made_ >= limit_; }
  // Linearizes plan (with the weak engine when plan.weak) and proposes it;
  // drop: the recorded partner that the new order replaces (kNoRecord:
  // none): it and every operation after it in happens-before, but the
  // plan's own, are left out of the prefix (they run after it, freely).
  void Emit(const Plan& plan, uint32_t drop, const std::string& key);
  // False when an operation of the plan would have to go too (an earlier
  // operation of its goroutine goes: a goroutine's scheduled operations
  // are a prefix of its own, INDEX 0, 1, 2, ...).
  bool Drop(const Plan& plan, uint32_t drop, schedule::Schedule* s) const;
  const hb::HappensBefore* Weak() const { return run_.Weak(); }
  // Alternative partners of receive r (a ChanRecv or a chosen receive case).
  void Partners(uint32_t r);
  void Select(uint32_t q);

  const AnalysedRun& run_;
  const trace::Trace& t_;
  const hb::OpIndex& ops_;
  const char* name_;
  size_t limit_;
  std::vector<Candidate>* out_;
  size_t made_ = 0;
  std::set<std::string> keys_;  // tried in this run (loops repeat alternatives)
  schedule::GoroutineOps controlled_;
};

bool Proposer::Drop(const Plan& plan, uint32_t drop, schedule::Schedule* s) const {
  std::set<uint32_t> keep;
  for (const BugOp& b : plan.bug) keep.insert(b.rec);
  std::vector<schedule::Op> kept;
  std::set<uint32_t> cut;  // goroutines that lost an operation
  for (const schedule::Op& op : s->ops) {
    uint32_t rec = hb::kNoRecord;
    std::span<const uint32_t> recs = controlled_.Of(s->goroutines[op.g]);
    if (op.index < recs.size()) rec = recs[op.index];
    bool planned = rec != hb::kNoRecord && keep.count(rec) > 0;
    bool after = rec != hb::kNoRecord && !planned &&
                 (rec == ops_.Owner(drop) || run_.hb.Before(drop, rec));
    if (cut.count(op.g) > 0) {
      if (planned) return false;
      continue;
    }
    if (after) {
      cut.insert(op.g);
      continue;
    }
    kept.push_back(op);
  }
  s->ops = std::move(kept);
  return true;
}

void Proposer::Emit(const Plan& plan, uint32_t drop, const std::string& key) {
  if (Full() || !keys_.insert(key).second) return;
  const hb::HappensBefore* e = plan.weak ? Weak() : &run_.hb;
  if (e == nullptr) return;
  rewrite::Rewrite rw;
  std::string err;
  if (!rewrite::RewritePlan(t_, run_.trace_dir, *e, plan, "fuzz " + key, &rw, &err)) return;
  if (drop != hb::kNoRecord && !Drop(plan, drop, &rw.schedule)) return;
  made_++;
  out_->push_back(Candidate{std::move(rw.schedule), key, name_});
}

void Proposer::PredictedBugs() {
  for (const report::Finding& f : run_.findings) {
    if (Full()) return;
    if (f.status != report::Status::Predicted || !rewrite::Rewritable(f.kind)) continue;
    std::string key = "bug " + report::DedupKey(f);
    if (!keys_.insert(key).second) continue;
    const hb::HappensBefore* weak = detect::RewriteOf(f.kind).needs_weak ? Weak() : nullptr;
    rewrite::Rewrite rw;
    std::string err;
    if (!rewrite::RewriteFinding(t_, run_.trace_dir, run_.hb, weak, f, &rw, &err)) continue;
    made_++;
    out_->push_back(Candidate{std::move(rw.schedule), key, name_});
  }
}

void Proposer::Partners(uint32_t r) {
  std::vector<uint32_t> partners;
  detect::FindPossiblePartners(run_.hb, r, &partners);
  uint32_t actual = run_.hb.Partner(r);
  for (uint32_t p : partners) {
    if (p == actual || ops_.GidOf(p) == ops_.GidOf(r)) continue;
    const trace::Record& pr = t_.records[p];
    if (pr.kind != Kind::ChanSend && pr.kind != Kind::ChanClose && pr.kind != Kind::SelectCase) {
      continue;
    }
    Plan plan;
    plan.bug = {detect::ChanBugOp(t_, ops_, p, Expect::Completed, false),
                detect::ChanBugOp(t_, ops_, r, Expect::Completed, false)};
    if (plan.bug[0].rec == plan.bug[1].rec) continue;  // two cases of one select
    Emit(plan, actual,
         fmt::format("partner {} {} <- {} {}", trace::InfoOf(t_.records[r].kind).sched, Site(r),
                     pr.kind == Kind::ChanClose ? "close" : "send", Site(p)));
  }
}

void Proposer::Select(uint32_t q) {
  const trace::Record& sel = t_.records[q];
  uint32_t chosen = ops_.ChosenCase(q);
  uint32_t actual = chosen == hb::kNoRecord ? hb::kNoRecord : run_.hb.Partner(chosen);
  for (uint32_t c = q + 1; c <= q + sel.aux && c < t_.records.size(); c++) {
    const trace::Record& cr = t_.records[c];
    if (cr.kind != Kind::SelectCase || cr.obj == 0) continue;
    if (c == chosen) {
      if (cr.flags & trace::kDirRecv) Partners(c);
      continue;
    }
    BugOp take{q, static_cast<int32_t>(cr.aux), Expect::Completed, false};
    std::vector<uint32_t> partners;
    detect::FindPossiblePartners(run_.hb, c, &partners);
    bool any = false;
    for (uint32_t p : partners) {
      if (ops_.GidOf(p) == ops_.GidOf(q) || ops_.Owner(p) == q) continue;
      Plan plan;
      plan.bug = {detect::ChanBugOp(t_, ops_, p, Expect::Completed, false), take};
      Emit(plan, actual, fmt::format("select {} case {} <- {}", Site(q), cr.aux, Site(p)));
      any = true;
    }
    if (!any && (cr.flags & trace::kTimer)) {
      Plan plan;
      plan.bug = {take};
      Emit(plan, actual, fmt::format("select {} case {} (timer)", Site(q), cr.aux));
    }
  }
  // Not while a case is always ready (its channel closed before the
  // select): Go never takes the default then.
  if ((sel.flags & trace::kHasDefault) && sel.tpost != 0 && sel.val != trace::kDefaultCase &&
      detect::DefaultPossible(run_.hb, q)) {
    Plan plan;
    plan.bug = {BugOp{q, detect::kChoiceDefault, Expect::Completed, false}};
    Emit(plan, actual, fmt::format("select {} default", Site(q)));
  }
}

void Proposer::Channels() {
  // A loop repeats its alternatives: the same receive or select site meets
  // the same partner sites again. Looking at the first few executions of
  // each site finds them; looking at all of them (200,000 receives of one
  // loop) made the proposals of one run take minutes.
  constexpr uint32_t kPerSite = 8;
  std::unordered_map<uint32_t, uint32_t> looked;  // site -> executions looked at
  for (uint32_t r = 0; r < t_.records.size() && !Full(); r++) {
    const trace::Record& rec = t_.records[r];
    if ((rec.kind != Kind::ChanRecv || rec.obj == 0) && rec.kind != Kind::Select) continue;
    if (ops_.GidOf(r) == trace::kNoGid) continue;
    if (looked[rec.site]++ >= kPerSite) continue;
    if (rec.kind == Kind::ChanRecv) Partners(r);
    else Select(r);
  }
}

void Proposer::Locks() {
  // One proposal per pair of sites (a loop takes the same lock at the same
  // sites many times): the pairs seen are skipped before any text is made.
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (ObjClass cls : {ObjClass::Mutex, ObjClass::RWMutex}) {
    for (uint32_t o = 0; o < ops_.Count(cls) && !Full(); o++) {
      std::vector<uint32_t> acq;
      for (uint32_t r : ops_.Ops(cls, o)) {
        Kind k = t_.records[r].kind;
        bool is_acq = k == Kind::MutexLock || k == Kind::RWLock || k == Kind::RLock;
        if (is_acq && t_.records[r].tpost != 0) acq.push_back(r);
      }
      std::sort(acq.begin(), acq.end(), [&](uint32_t a, uint32_t b) {
        return schedule::OrderKey(t_.records[a]) < schedule::OrderKey(t_.records[b]);
      });
      for (size_t i = 1; i < acq.size() && !Full(); i++) {
        uint32_t a = acq[i - 1], b = acq[i];
        if (ops_.GidOf(a) == ops_.GidOf(b)) continue;
        if (t_.records[a].kind == Kind::RLock && t_.records[b].kind == Kind::RLock) continue;
        if (!pairs.insert({t_.records[b].site, t_.records[a].site}).second) continue;
        const hb::HappensBefore* weak = Weak();
        if (weak == nullptr) return;
        if (weak->Before(a, b)) continue;  // ordered by more than the lock
        Plan plan;
        plan.weak = true;
        plan.bug = {BugOp{b, detect::kChoiceRecorded, Expect::Completed, false},
                    BugOp{a, detect::kChoiceRecorded, Expect::Completed, false}};
        Emit(plan, hb::kNoRecord, fmt::format("lock {} before {}", Site(b), Site(a)));
      }
    }
  }
}

}  // namespace

void PredictionGuided::Propose(const AnalysedRun& run, std::vector<Candidate>* out) {
  Proposer p(run, Name(), max_per_run, out);
  p.PredictedBugs();
  p.Channels();
  p.Locks();
}

}  // namespace gordian::fuzz
