// This file implements the analysis of one trace (analyze_trace.h).
#include "gordian/pipeline/analyze_trace.h"

#include <cstdio>
#include <memory>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/pipeline/memory_budget.h"
#include "gordian/race/race_findings.h"
#include "gordian/report/columns.h"
#include "gordian/trace/summary.h"
#include "gordian/trace/trace.h"
#include "gordian/util/memory.h"
#include "gordian/util/size.h"
#include "gordian/util/phase_timing.h"

namespace gordian::pipeline {

namespace {

// Of an engine's room (its memory limit), what its stored snapshots may
// take: the rest is for the live clocks of goroutines and objects, which
// keep changing after the snapshots stop.
uint64_t SnapshotShare(uint64_t room) { return room / 4 * 3; }

// Builds hb over ops within what budget leaves for it; false (with the loss
// said in budget) when it cannot be built.
bool BuildEngine(const std::string& cmd, const std::string& dir, const hb::OpIndex& ops,
                 MemoryBudget* budget, hb::HappensBefore* hb) {
  const trace::Trace& t = ops.trace();
  std::string hb_err;
  bool built = false;
  try {
    built = hb->Build(ops, &hb_err);
  } catch (const std::bad_alloc&) {
    budget->Drop(fmt::format("memory ran out while computing happens-before for {} records; "
                             "no predictions were made for this trace",
                             t.records.size()));
    return false;
  }
  if (!built && hb->stats().over_limit) {
    budget->Drop(fmt::format("the happens-before clocks of {} goroutines outgrew the memory "
                             "budget ({}): {}; no predictions were made for this trace",
                             t.goroutines.size(), util::FormatSize(budget->limit()), hb_err));
    return false;
  }
  if (!built) {
    fmt::print(stderr, "{}: warning: {}: no happens-before analysis: {}\n", cmd, dir, hb_err);
    return false;
  }
  budget->Charge(EngineFixedBytes(t.records.size(), t.goroutines.size()) +
                 hb->stats().engine_bytes);
  if (uint64_t lost = hb->RecordsWithoutClock(); lost > 0) {
    budget->Drop(fmt::format("the memory budget ({}) held the clocks of {} of {} records; "
                             "predictions about the other {} were dropped",
                             util::FormatSize(budget->limit()), t.records.size() - lost,
                             t.records.size(), lost));
  }
  return true;
}

}  // namespace

bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err) {
  if (opt.progress != nullptr) opt.progress->Update("reading", 0, 0);
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err)) return false;
  TraceAnalysis a;
  AnalyzeRead(cmd, t, dir, opt, &a, out);
  return true;
}

void AnalyzeRead(const std::string& cmd, const trace::Trace& t, const std::string& dir,
                 const AnalyzeOptions& opt, TraceAnalysis* a,
                 std::vector<report::Finding>* out) {
  util::PhaseTimer timer("analyze");  // GORDIAN_TIMING=1
  for (const std::string& w : t.warnings) fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, w);
  if (opt.verbose) {
    for (const std::string& n : t.notes) fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, n);
  }
  if (opt.verdict != nullptr) AddTraceVerdict(t, opt.package, opt.verdict);
  auto phase = [&](std::string_view what, uint64_t done, uint64_t total) {
    if (opt.progress != nullptr) opt.progress->Update(what, done, total);
  };
  MemoryBudget budget(opt.memory_budget != 0 ? opt.memory_budget : util::DefaultMemoryBudget());
  const uint64_t n = t.records.size();
  budget.Charge(TraceBytes(t));
  // The one index of the trace: the engine, the occurred and the predictive
  // detectors all read it. The occurred detectors need it whatever the
  // budget says: it is charged, never dropped.
  phase("indexing", 0, n);
  hb::OpIndex& ops = a->ops;
  ops.Build(t);
  budget.Charge(ops.MemoryBytes() + n * kDetectorBytesPerRecord);
  timer.Lap("op index");

  // The happens-before engine gets what is left (memory_budget.h).
  phase("happens-before", 0, n);
  // The engine keeps its options after this call (a->hb), and whoever
  // builds a second engine from them copies the callback: it reaches the
  // caller's progress through this state, which is cut off on return.
  struct EngineProgress {
    AnalysisProgress* sink;
    std::string_view phase;
  };
  auto engine_progress =
      std::make_shared<EngineProgress>(EngineProgress{opt.progress, "happens-before"});
  hb::HbOptions ho;
  ho.progress = [engine_progress](uint64_t steps, uint64_t records) {
    if (engine_progress->sink != nullptr) {
      engine_progress->sink->Update(engine_progress->phase, steps, records);
    }
  };
  bool room = budget.ClockBudgetFor(n, t.goroutines.size(), &ho.memory_limit_bytes);
  ho.clock_budget_bytes = SnapshotShare(ho.memory_limit_bytes);
  a->hb = std::make_unique<hb::HappensBefore>(ho);
  hb::HappensBefore& hb = *a->hb;
  bool& have_hb = a->have_hb;
  have_hb = false;
  if (!room) {
    budget.Drop(fmt::format("the trace ({}) and its index ({}) fill the memory budget ({}); no "
                            "happens-before analysis and no predictions for {} records",
                            util::FormatSize(TraceBytes(t)), util::FormatSize(ops.MemoryBytes()),
                            util::FormatSize(budget.limit()), n));
  } else {
    have_hb = BuildEngine(cmd, dir, ops, &budget, &hb);
  }
  timer.Lap("happens-before");
  if (opt.verbose) {
    for (const std::string& w : hb.warnings()) {
      fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, w);
    }
  }
  // The occurred detectors ask the engine only when it has every clock:
  // with records "ordered with everything" they would miss what occurred,
  // so they fall back to their trace-only criteria then.
  phase("occurred", 0, n);
  detect::OccurredOptions oo;
  oo.ops = &ops;
  if (have_hb && hb.RecordsWithoutClock() == 0) {
    oo.hb = &hb;
    oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* partners) {
      detect::FindPossiblePartners(hb, rec, partners);
    };
  }
  std::vector<report::Finding> found = detect::DetectOccurred(t, oo);
  timer.Lap("occurred (all)");
  // -race: Go's race detector reports, from the log beside the trace.
  if (size_t k = race::AddRaceFindings(dir, t, &found); k > 0) {
    fmt::print(stderr, "{}: warning: {}: {} race report(s) without a location in the program\n",
               cmd, dir, k);
  }
  if (have_hb && opt.predict) {
    phase("predicting", 0, 0);
    engine_progress->phase = "predicting (second engine)";
    size_t first = found.size();
    detect::PredictOptions po;
    detect::PredictOptions::WeakUse weak;
    po.weak_use = &weak;
    po.allow_weak = budget.ClockBudgetFor(n, t.goroutines.size(), &po.weak_memory_limit_bytes);
    po.weak_clock_budget_bytes = SnapshotShare(po.weak_memory_limit_bytes);
    try {
      detect::PredictBugs(t, hb, &found, po);
      // The terminal report names every goroutine with its spawn site.
      detect::OccurredIndex ix(ops);
      for (size_t i = first; i < found.size(); i++) detect::FillGoroutines(ix, &found[i]);
    } catch (const std::bad_alloc&) {
      found.resize(first);
      budget.Drop(fmt::format("memory ran out while predicting; the predictions of this trace "
                              "({} records) were dropped", n));
    }
    if (weak.wanted && !weak.built) {
      budget.Drop(fmt::format("the second happens-before engine did not fit in the memory "
                              "budget ({}); lock-order-deadlock and mixed-deadlock "
                              "predictions were dropped",
                              util::FormatSize(budget.limit())));
    } else if (weak.built) {
      budget.Charge(EngineFixedBytes(n, t.goroutines.size()) + weak.clock_bytes);
      if (weak.records_without_clock > 0) {
        budget.Drop(fmt::format("the memory budget ({}) held the second engine's clocks of {} of "
                                "{} records; lock-order-deadlock and mixed-deadlock predictions "
                                "about the other {} were dropped",
                                util::FormatSize(budget.limit()), n - weak.records_without_clock,
                                n, weak.records_without_clock));
      }
    }
    timer.Lap("predict (all)");
  }
  report::ResolveColumns(&found);
  if (have_hb && opt.confirm != nullptr && ConfirmTrace(cmd, t, hb, dir, &found, *opt.confirm) &&
      opt.replayed != nullptr) {
    *opt.replayed = true;
  }
  if (have_hb && opt.confirm != nullptr) timer.Lap("confirm");
  for (report::Finding& f : found) {
    if (f.test.empty()) f.test = opt.test;
    out->push_back(std::move(f));
  }
  engine_progress->sink = nullptr;
  if (opt.memory_used != nullptr) *opt.memory_used = budget.used();
  if (opt.degraded != nullptr) {
    std::string where = opt.package.empty() ? dir : opt.package;
    for (const std::string& d : budget.dropped()) opt.degraded->push_back(where + ": " + d);
  }
}

void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v) {
  trace::TraceSummary sum = trace::Summarize(t);
  report::PackageVerdict p;
  p.package = package;
  p.how = trace::DescribeEnd(sum);
  p.ok = sum.exited && sum.exit_status == 0;
  for (const trace::TestOutcome& o : trace::TestOutcomes(t)) {
    report::TestVerdict tv;
    tv.package = package;
    tv.name = o.name;
    tv.result = !o.finished ? report::TestResult::Unfinished
                : o.failed  ? report::TestResult::Fail
                            : report::TestResult::Pass;
    // A test binary that exits 0 ran every test to its end: a test without
    // TestEnd there is one whose end the recorder missed, not a failure.
    if (p.ok && tv.result == report::TestResult::Unfinished) tv.result = report::TestResult::Pass;
    p.ok = p.ok && tv.result == report::TestResult::Pass;
    v->tests.push_back(std::move(tv));
  }
  v->packages.push_back(std::move(p));
}

}  // namespace gordian::pipeline
