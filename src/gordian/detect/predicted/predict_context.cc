// This file implements the predictive detectors' shared context and the
// PredictBugs pipeline.
#include "gordian/detect/predicted/predict_context.h"

#include <fmt/format.h>

#include "gordian/detect/read_goroutines.h"
#include "gordian/report/dedup.h"
#include "gordian/util/phase_timing.h"

namespace gordian::detect {

const hb::HappensBefore* PredictContext::Weak() {
  if (weak_) return weak_.get();
  if (weak_failed_) return nullptr;
  if (opt.weak_use != nullptr) opt.weak_use->wanted = true;
  if (!opt.allow_weak) {  // the memory budget has no room for it
    weak_failed_ = true;
    return nullptr;
  }
  hb::HbOptions o = hb.options();
  if (o.unneeded != nullptr && !o.unneeded->empty()) {
    // Clocks on demand (clock_needs.h): this engine keeps only the clocks
    // of the acquisitions its detectors ask about, and the entries of the
    // goroutines those questions read.
    util::PhaseTimer timer("weak");  // GORDIAN_TIMING=1
    o.unneeded = WeakUnneeded(*this);
    o.read_goroutines = ReadGoroutinesOf(ops, o.unneeded.get()).read;
    timer.Lap("clock needs");
  }
  if (opt.weak_clock_budget_bytes != UINT64_MAX) o.clock_budget_bytes = opt.weak_clock_budget_bytes;
  if (opt.weak_memory_limit_bytes != UINT64_MAX) o.memory_limit_bytes = opt.weak_memory_limit_bytes;
  weak_ = hb::BuildWithoutMutexEdges(hb, std::move(o));
  if (weak_ == nullptr) {
    weak_failed_ = true;
    return nullptr;
  }
  if (opt.weak_use != nullptr) {
    opt.weak_use->built = true;
    opt.weak_use->clock_bytes = weak_->stats().engine_bytes;
    opt.weak_use->records_without_clock = weak_->RecordsWithoutClock();
  }
  return weak_.get();
}

bool PredictContext::PartlyUnclocked(ObjClass cls, uint32_t dense) {
  std::vector<int8_t>& known = partly_unclocked_[int(cls)];
  if (known.empty()) known.assign(ops.Count(cls), -1);
  if (known[dense] < 0) {
    bool some = false;
    for (const hb::RecordMask* mask :
         {hb.options().unclocked.get(), hb.options().unneeded.get()}) {
      if (mask == nullptr || mask->empty()) continue;
      for (uint32_t r : ops.Ops(cls, dense)) some = some || (*mask)[r];
    }
    known[dense] = some;
  }
  return known[dense] != 0;
}

const OccurredIndex& PredictContext::Index() {
  if (!index_) index_ = std::make_unique<OccurredIndex>(ops);
  return *index_;
}

const ChanRuns& PredictContext::Runs(uint32_t ch) {
  auto [it, fresh] = runs_.try_emplace(ch);
  if (!fresh) return it->second;
  ChanRuns& cr = it->second;
  for (uint32_t y : ops.Ops(hb::ObjClass::Chan, ch)) {
    const trace::Record& r = rec(y);
    switch (hb::DirOf(r)) {
      case hb::ChanDir::Send:
        if (!(r.flags & trace::kClosed)) cr.send.Add(Gor(y), y);
        break;
      case hb::ChanDir::Recv:
        cr.recv.Add(Gor(y), y);
        break;
      case hb::ChanDir::Close:
        if (!(r.flags & trace::kClosed)) cr.closes.push_back(y);
        break;
      default:
        break;
    }
  }
  return cr;
}

std::string PredictContext::Chan(uint32_t dense) {
  return Index().DescribeChan(ops.Channel(dense).raw);
}

report::Finding PredictContext::NewFinding(report::FindingKind kind, RecordId primary,
                                           report::Role role) {
  report::Finding f;
  f.kind = kind;
  f.status = report::Status::Predicted;
  f.severity = report::DefaultSeverity(kind);
  f.test = Index().TestOf(primary);
  f.locations.push_back(Index().Loc(primary, role));
  f.records.push_back(primary);  // for rewrite/rewrite.h
  return f;
}

void PredictContext::AddLocation(report::Finding* f, RecordId rec, report::Role role) {
  f->locations.push_back(Index().Loc(rec, role));
  f->records.push_back(rec);  // for rewrite/rewrite.h
}

void PredictContext::AddStep(report::Finding* f, RecordId rec, report::Role role,
                             std::string what, bool blocks) {
  f->interleaving.push_back(Index().StepOf(rec, role, std::move(what)));
  // The record completed in the run; the other schedule is what blocks it.
  f->interleaving.back().blocks |= blocks;
}

void PredictContext::Report(report::FindingKind kind, std::initializer_list<At> at,
                            std::string message, std::initializer_list<StepAt> steps) {
  report::Finding f = NewFinding(kind, at.begin()->rec, at.begin()->role);
  for (auto it = at.begin() + 1; it != at.end(); ++it) AddLocation(&f, it->rec, it->role);
  f.message = std::move(message);
  for (const StepAt& s : steps) AddStep(&f, s.rec, s.role, s.what, s.blocks);
  Emit(std::move(f));
}

void PredictContext::Emit(report::Finding f) {
  if (f.dedup_key.empty()) f.dedup_key = report::DedupKey(f);
  auto it = emitted_.find(f.dedup_key);
  if (it != emitted_.end()) {
    (*out_)[it->second].occurrences++;
    return;
  }
  // Not FinishFinding: that sorts the steps by their recorded stamps, and a
  // prediction's steps are in the order of the other schedule (the close
  // before the send that, in the recorded run, came first).
  FillGoroutines(Index(), &f);
  emitted_.emplace(f.dedup_key, out_->size());
  out_->push_back(std::move(f));
}

void PredictBugs(const trace::Trace& t, const hb::HappensBefore& hb,
                 std::vector<report::Finding>* out, const PredictOptions& opt) {
  PredictContext c(t, hb, opt, out);
  util::PhaseTimer timer("predict");  // GORDIAN_TIMING=1
  // Each detector gets the whole budget for its own searches (the budget
  // bounds a pathological trace, it is not a time slice).
  auto run = [&](void (*fn)(PredictContext&), const char* name) {
    c.SetShare(opt.work_limit);
    fn(c);
    if (c.exhausted()) timer.Lap(fmt::format("{} (budget spent)", name).c_str());
    else timer.Lap(name);
  };
  if (opt.bugs) {
    run(PredictSendOnClosed, "PredictSendOnClosed");
    run(PredictNegativeWaitGroup, "PredictNegativeWaitGroup");
    run(PredictUnlockOfUnlocked, "PredictUnlockOfUnlocked");
    run(PredictLockOrder, "PredictLockOrder");
    run(PredictRecursiveRLock, "PredictRecursiveRLock");
    run(PredictMixedDeadlock, "PredictMixedDeadlock");
    run(PredictSelectLeaks, "PredictSelectLeaks");
    run(PredictTestingAfterEnd, "PredictTestingAfterEnd");
  }
  if (opt.warnings) run(PredictRecvOnClosed, "PredictRecvOnClosed");
  if (opt.info) {
    run(InfoAlternatives, "InfoAlternatives");
    run(InfoContention, "InfoContention");
  }
}

}  // namespace gordian::detect
