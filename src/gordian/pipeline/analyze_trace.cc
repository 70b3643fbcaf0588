// This file implements the analysis of one trace (analyze_trace.h).
#include "gordian/pipeline/analyze_trace.h"

#include <algorithm>
#include <cstdio>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <memory>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "gordian/detect/clock_needs.h"
#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/detect/read_goroutines.h"
#include "gordian/driver/process.h"
#include "gordian/hb/happens_before.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/pipeline/memory_budget.h"
#include "gordian/pipeline/object_shedding.h"
#include "gordian/pipeline/trace_windows.h"
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

// Attempts at building the engine: the whole of it, then without the
// clocks of the largest objects (object_shedding.h), more of them each time.
// An attempt is given up when its live clocks pass the limit, or when its
// snapshots pass their budget before half of the replay (most records would
// have no clock); past half, the engine goes on without clocks for the rest,
// which keeps more predictions than shedding the largest objects would.
constexpr size_t kBuildAttempts = 4;

// The share of the operations on objects to shed after an attempt that
// shed `shed` and stopped after `done` of `total` steps: memory grows
// about linearly with the replay, so it needed about total/done times what
// it had; a quarter more for the estimate's error, and always more than
// the last attempt.
double NextShedShare(double shed, uint64_t done, uint64_t total) {
  double missing = total == 0 ? 1 : 1 - static_cast<double>(done) / static_cast<double>(total);
  double next = std::max(shed + (1 - shed) / 2, std::min(0.97, shed + missing * (1 - shed) * 1.25));
  return std::min(next, 0.97);
}

// Builds the engine over ops within what budget leaves for it (options
// carry the limits); null (with the loss said in budget) when it cannot be
// built. When the clocks do not fit, builds again without the clocks of the
// largest objects, so that predictions about the others survive.
std::unique_ptr<hb::HappensBefore> BuildEngine(const std::string& cmd, const std::string& dir,
                                               const hb::OpIndex& ops, const hb::HbOptions& options,
                                               MemoryBudget* budget, bool for_confirmation = false) {
  // What the loss costs: the predictions, or, for the engine with every
  // clock rebuilt after them, the replays that confirm them.
  const char* lost = for_confirmation ? "the replays of predictions" : "predictions";
  const trace::Trace& t = ops.trace();
  std::string last_err;
  double share = 0;
  util::PhaseTimer timer("hb-build");  // GORDIAN_TIMING=1: one line per attempt
  for (size_t k = 0; k < kBuildAttempts; k++) {
    hb::HbOptions o = options;
    Shedding shed;
    if (share > 0) {
      shed = ShedLargestObjects(ops, share);
      if (shed.records == 0) break;  // nothing large enough to shed
      o.unclocked = shed.unclocked;
    }
    const bool last = k + 1 == kBuildAttempts;
    o.stop_if_exhausted_before = last ? 0 : t.records.size() / 2;
    auto hb = std::make_unique<hb::HappensBefore>(o);
    std::string hb_err;
    bool built = false;
    try {
      built = hb->Build(ops, &hb_err);
      const hb::HbStats& st = hb->stats();
      timer.Lap(fmt::format("attempt {} shed {:.0f}%: {} ({} snapshots, clocks {} MB, "
                            "engine {} MB, {} collections)",
                            k, share * 100,
                            built ? "built" : fmt::format("stopped at {}", st.steps),
                            st.snapshots, st.clock_bytes >> 20, st.engine_bytes >> 20,
                            st.collections)
                    .c_str());
    } catch (const std::bad_alloc&) {
      last_err = "memory ran out";
      share = NextShedShare(share, 0, 1);
      continue;
    }
    if (!built && hb->stats().over_limit) {
      last_err = hb_err;
      // The goroutines' and objects' current clocks alone fill the limit:
      // storing fewer snapshots cannot help.
      if (hb->stats().live_clock_bytes > options.memory_limit_bytes / 2) {
        last_err += fmt::format(" (the current clocks alone held {})",
                                util::FormatSize(hb->stats().live_clock_bytes));
        break;
      }
      share = NextShedShare(share, hb->stats().steps, t.records.size());
      continue;
    }
    if (!built) {
      fmt::print(stderr, "{}: warning: {}: no happens-before analysis: {}\n", cmd, dir, hb_err);
      return nullptr;
    }
    budget->Charge(EngineFixedBytes(t.records.size(), t.goroutines.size()) +
                   hb->stats().engine_bytes);
    if (shed.records > 0) {
      budget->Drop(fmt::format("the happens-before clocks of {} goroutines did not fit in the "
                               "memory budget ({}); {} about its largest objects were "
                               "dropped: {}",
                               t.goroutines.size(), util::FormatSize(budget->limit()), lost,
                               DescribeShedding(shed)));
    }
    if (hb->ClockBudgetExhausted()) {
      budget->Drop(fmt::format("the memory budget ({}) held the clocks of {} of {} records; "
                               "{} about the other {} were dropped",
                               util::FormatSize(budget->limit()),
                               t.records.size() - hb->RecordsWithoutClock(), t.records.size(),
                               lost, hb->RecordsWithoutClock()));
    }
    return hb;
  }
  budget->Drop(fmt::format("the happens-before clocks of {} goroutines outgrew the memory "
                           "budget ({}): {}; "
                           "no {} were made for this trace",
                           t.goroutines.size(), util::FormatSize(budget->limit()), last_err,
                           for_confirmation ? "replays of predictions" : "predictions"));
  return nullptr;
}

}  // namespace

namespace {

// What a trace says about the whole run, said once per trace: the reader's
// warnings (and, verbose, its notes) and the tests' verdict.
void SayAboutTheRun(const std::string& cmd, const trace::Trace& t, const std::string& dir,
                    const AnalyzeOptions& opt) {
  for (const std::string& w : t.warnings) fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, w);
  if (opt.verbose) {
    for (const std::string& n : t.notes) fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, n);
  }
  if (opt.verdict != nullptr) AddTraceVerdict(t, opt.package, opt.verdict);
}

bool AnalyzeInWindows(const std::string& cmd, const std::string& dir, trace::Trace whole,
                      TraceWindows w, const AnalyzeOptions& opt,
                      std::vector<report::Finding>* out, std::string* err);
}  // namespace

bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err) {
  if (opt.progress != nullptr) opt.progress->Update("reading", 0, 0);
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err)) return false;
  const uint64_t min_records =
      opt.window_min_records != 0 ? opt.window_min_records : kWindowMinRecords;
  if (t.records.size() >= min_records) {
    TraceWindows w = CutIntoWindows(t, 8, std::min(kMinWindowRecords, min_records));
    if (!w.windows.empty()) return AnalyzeInWindows(cmd, dir, std::move(t), std::move(w), opt, out, err);
    if (opt.verbose) {
      fmt::print(stderr, "{}: note: {}: analysed whole ({} records): {}\n", cmd, dir,
                 t.records.size(), w.why_not);
    }
  }
  TraceAnalysis a;
  AnalyzeRead(cmd, t, dir, opt, &a, out);
  return true;
}

namespace {

// Reads the records of one window (its goroutines, marked by gid in
// window), with the whole trace's goroutine table, and analyses them.
bool AnalyzeWindow(const std::string& cmd, const std::string& dir, std::vector<uint8_t> window,
                   const std::vector<trace::Goroutine>& table, const AnalyzeOptions& opt,
                   std::vector<report::Finding>* out, uint64_t* records, std::string* err) {
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err, WindowSelection(std::move(window)))) return false;
  if (t.goroutines.size() != table.size()) {
    *err = fmt::format("{}: the trace changed while it was analysed", dir);
    return false;
  }
  for (size_t g = 0; g < table.size(); g++) {
    t.goroutines[g].parent = table[g].parent;
    t.goroutines[g].child_index = table[g].child_index;
    t.goroutines[g].stable_id = table[g].stable_id;
  }
  t.warnings.clear();  // said once, for the whole trace
  t.notes.clear();
  *records = t.records.size();
  TraceAnalysis a;
  AnalyzeRead(cmd, t, dir, opt, &a, out);
  return true;
}

// The analysis of a trace one window of tests at a time (trace_windows.h):
// each window read on its own, with the whole trace's goroutine table, and
// analysed as a trace of its own; what concerns the whole run (the reader's
// warnings, the tests' verdict, Go's race reports) said once.
bool AnalyzeInWindows(const std::string& cmd, const std::string& dir, trace::Trace whole,
                      TraceWindows w, const AnalyzeOptions& opt,
                      std::vector<report::Finding>* out, std::string* err) {
  util::PhaseTimer timer("windows");  // GORDIAN_TIMING=1
  SayAboutTheRun(cmd, whole, dir, opt);
  if (opt.verbose) {
    fmt::print(stderr,
               "{}: note: {}: {} records analysed in {} windows of tests that share nothing "
               "({} groups; the largest window {} records)\n",
               cmd, dir, whole.records.size(), w.windows.size(), w.groups,
               *std::max_element(w.records.begin(), w.records.end()));
  }
  std::vector<trace::Goroutine> table = std::move(whole.goroutines);
  whole = trace::Trace();  // the windows are read again, one at a time
  timer.Lap("cut");
  uint64_t used_most = 0;
  for (size_t k = 0; k < w.windows.size(); k++) {
    if (driver::Interrupted()) {
      // Winding down: what was found so far is reported, and what was not
      // analysed is said.
      if (opt.degraded != nullptr) {
        opt.degraded->push_back(fmt::format(
            "{}: interrupted: {} of {} windows of its tests were not analysed",
            opt.package.empty() ? dir : opt.package, w.windows.size() - k, w.windows.size()));
      }
      break;
    }
    AnalyzeOptions wo = opt;
    wo.verdict = nullptr;
    wo.race_reports = k == 0;
    uint64_t used = 0;
    wo.memory_used = &used;
    bool gave_up = false;
    wo.gave_up = opt.gave_up != nullptr ? &gave_up : nullptr;
    uint64_t records = 0;
    if (!AnalyzeWindow(cmd, dir, std::move(w.windows[k]), table, wo, out, &records, err)) {
      return false;
    }
    timer.Lap(fmt::format("window {} of {} ({} records)", k + 1, w.windows.size(), records).c_str());
    used_most = std::max(used_most, used);
#ifdef __GLIBC__
    // What the window freed goes back to the system before the next one is
    // read (glibc keeps freed heap pages otherwise: 600 MB after smux's
    // first window).
    malloc_trim(0);
#endif
    if (gave_up) {
      *opt.gave_up = true;
      break;
    }
  }
  if (opt.memory_used != nullptr) *opt.memory_used = used_most;
  return true;
}

}  // namespace

namespace {

// The predictive detectors (detect/predict.h) over the engine, their
// findings appended to found, with the goroutines the terminal report
// names. What they cannot do within the budget (memory running out, a
// second engine that does not fit or keeps too few clocks) is said in it.
void PredictInto(const trace::Trace& t, const hb::OpIndex& ops, const hb::HappensBefore& hb,
                 MemoryBudget* budget, std::vector<report::Finding>* found_out) {
  std::vector<report::Finding>& found = *found_out;
  const uint64_t n = t.records.size();
  size_t first = found.size();
  detect::PredictOptions po;
  detect::PredictOptions::WeakUse weak;
  po.weak_use = &weak;
  po.allow_weak = budget->ClockBudgetFor(n, t.goroutines.size(), &po.weak_memory_limit_bytes);
  po.weak_clock_budget_bytes = SnapshotShare(po.weak_memory_limit_bytes);
  try {
    detect::PredictBugs(t, hb, &found, po);
    // The terminal report names every goroutine with its spawn site.
    detect::OccurredIndex ix(ops);
    for (size_t i = first; i < found.size(); i++) detect::FillGoroutines(ix, &found[i]);
  } catch (const std::bad_alloc&) {
    found.resize(first);
    budget->Drop(fmt::format("memory ran out while predicting; the predictions of this trace "
                             "({} records) were dropped", n));
  }
  if (weak.wanted && !weak.built) {
    budget->Drop(fmt::format("the second happens-before engine did not fit in the memory "
                             "budget ({}); lock-order-deadlock and mixed-deadlock "
                             "predictions were dropped",
                             util::FormatSize(budget->limit())));
  } else if (weak.built) {
    budget->Charge(EngineFixedBytes(n, t.goroutines.size()) + weak.clock_bytes);
    if (weak.records_without_clock > 0) {
      budget->Drop(fmt::format("the memory budget ({}) held the second engine's clocks of {} of "
                               "{} records; lock-order-deadlock and mixed-deadlock predictions "
                               "about the other {} were dropped",
                               util::FormatSize(budget->limit()), n - weak.records_without_clock,
                               n, weak.records_without_clock));
    }
  }
}

// What the analysis of a trace left out, as AnalyzeOptions::degraded says:
// what the budget dropped, questions outside the read goroutines (gap), an
// incomplete trace.
void ReportDegraded(const trace::Trace& t, const std::string& dir, const AnalyzeOptions& opt,
                    const MemoryBudget& budget, const std::string& gap) {
  std::string where = opt.package.empty() ? dir : opt.package;
  for (const std::string& d : budget.dropped()) opt.degraded->push_back(where + ": " + d);
  if (!gap.empty()) opt.degraded->push_back(where + ": " + gap);
  if (!t.incomplete.empty()) {
    opt.degraded->push_back(fmt::format(
        "{}: the trace is incomplete: the recording stopped before the program did, because {}; "
        "nothing after that point is analysed",
        where, t.incomplete));
  }
}

}  // namespace

void AnalyzeRead(const std::string& cmd, const trace::Trace& t, const std::string& dir,
                 const AnalyzeOptions& opt, TraceAnalysis* a,
                 std::vector<report::Finding>* out) {
  util::PhaseTimer timer("analyze");  // GORDIAN_TIMING=1
  // The memory of the read trace (its wall time is the reader's, not here).
  timer.Lap("trace read");
  SayAboutTheRun(cmd, t, dir, opt);
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
  // Only the clocks some detector reads (detect/clock_needs.h), with or
  // without predictions: the occurred detectors' questions (a stuck
  // operation's partners) are among those it keeps.
  detect::ClockNeeds needs;
  if (opt.clocks_on_demand) {
    needs = detect::UnneededClocks(ops);
    ho.unneeded = needs.unneeded;
    // And only the entries of the goroutines some question reads
    // (detect/read_goroutines.h): every goroutine when nothing is exempt.
    const detect::ReadGoroutines read = detect::ReadGoroutinesOf(ops, needs.unneeded.get());
    ho.read_goroutines = read.read;
    timer.Lap("clock needs");
    if (opt.verbose && needs.objects > 0) {
      fmt::print(stderr,
                 "{}: note: {}: no detector asks about the {} operations on {} large objects: "
                 "their clocks are not stored (docs/analysis-needs.md)\n",
                 cmd, dir, needs.records - needs.no_object, needs.objects);
    }
    if (opt.verbose && read.read != nullptr) {
      fmt::print(stderr,
                 "{}: note: {}: the clocks keep the entries of the {} of {} goroutines some "
                 "detector asks about (docs/analysis-needs.md)\n",
                 cmd, dir, read.count, t.goroutines.size());
    }
  }
  bool room = budget.ClockBudgetFor(n, t.goroutines.size(), &ho.memory_limit_bytes);
  ho.clock_budget_bytes = SnapshotShare(ho.memory_limit_bytes);
  bool& have_hb = a->have_hb;
  have_hb = false;
  if (!room) {
    budget.Drop(fmt::format("the trace ({}) and its index ({}) fill the memory budget ({}); no "
                            "happens-before analysis and no predictions for {} records",
                            util::FormatSize(TraceBytes(t)), util::FormatSize(ops.MemoryBytes()),
                            util::FormatSize(budget.limit()), n));
  } else {
    a->hb = BuildEngine(cmd, dir, ops, ho, &budget);
    have_hb = a->hb != nullptr;
  }
  // Without an engine, an empty one (built over nothing) answers the
  // callers that hold a reference; have_hb says it is not to be asked.
  if (a->hb == nullptr) a->hb = std::make_unique<hb::HappensBefore>(ho);
  hb::HappensBefore& hb = *a->hb;
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
  if (size_t k = opt.race_reports ? race::AddRaceFindings(dir, t, &found) : 0; k > 0) {
    fmt::print(stderr, "{}: warning: {}: {} race report(s) without a location in the program\n",
               cmd, dir, k);
  }
  if (have_hb && opt.predict) {
    phase("predicting", 0, 0);
    engine_progress->phase = "predicting (second engine)";
    PredictInto(t, ops, hb, &budget, &found);
    timer.Lap("predict (all)");
  }
  // The clocks keep only the entries of the goroutines some question reads
  // (detect/read_goroutines.h); a question about another one was answered
  // "ordered", which can lose a prediction or leave a leak's partner out of
  // its message. The differential tests keep
  // this at 0; should a trace show a gap, the report says so (degraded)
  // rather than lose the finding silently.
  std::string gap;
  if (have_hb && hb.QuestionsOutsideReadGoroutines() > 0) {
    gap = fmt::format("{} happens-before questions were about goroutines whose clock entries "
                      "the analysis left out (detect/read_goroutines.h); findings about them may "
                      "be missing: please report this trace",
                      hb.QuestionsOutsideReadGoroutines());
    fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, gap);
  }
  if (opt.gave_up != nullptr && !budget.dropped().empty()) {
    // A larger budget may keep what this one dropped: no replay for a
    // result that is about to be thrown away.
    *opt.gave_up = true;
    engine_progress->sink = nullptr;
    return;
  }
  report::ResolveColumns(&found);
  // The rewrite of a prediction reads the clocks of every operation in the
  // bug's past: build the engine again with all of them, in the place of
  // the one without the unneeded clocks, unless no replayed finding has a
  // past to linearize, and only up to the last bug operation when that is
  // known before (ClocksForConfirmation). On a suite of 44M records that
  // engine was twice the analysis's peak.
  const ConfirmClocks wanted = have_hb && opt.confirm != nullptr && opt.confirm->enabled &&
                                       needs.records > 0
                                   ? ClocksForConfirmation(t, *a->hb, found)
                                   : ConfirmClocks{};
  if (wanted.needed) {
    phase("happens-before (every clock)", 0, n);
    engine_progress->phase = "happens-before (every clock)";
    budget.Release(EngineFixedBytes(n, t.goroutines.size()) + a->hb->stats().engine_bytes);
    a->hb.reset();  // (the reference `hb` above is to this engine: not used below)
    hb::HbOptions full = ho;
    full.unneeded = nullptr;
    full.read_goroutines = nullptr;
    if (wanted.up_to_stamp != UINT32_MAX) {
      auto later = std::make_shared<hb::RecordMask>(n);
      for (size_t i = 0; i < n; ++i) {
        if (t.records[i].tpre > wanted.up_to_stamp) later->Set(i);
      }
      full.unneeded = std::move(later);
    }
    a->hb = BuildEngine(cmd, dir, ops, full, &budget, /*for_confirmation=*/true);
    have_hb = a->hb != nullptr;
    if (a->hb == nullptr) a->hb = std::make_unique<hb::HappensBefore>(full);
    timer.Lap("happens-before (every clock)");
  }
  if (have_hb && opt.confirm != nullptr &&
      ConfirmTrace(cmd, t, *a->hb, dir, &found, *opt.confirm) && opt.replayed != nullptr) {
    *opt.replayed = true;
  }
  if (have_hb && opt.confirm != nullptr) timer.Lap("confirm");
  for (report::Finding& f : found) {
    if (f.test.empty()) f.test = opt.test;
    out->push_back(std::move(f));
  }
  engine_progress->sink = nullptr;
  if (opt.memory_used != nullptr) *opt.memory_used = budget.used();
  if (opt.degraded != nullptr) ReportDegraded(t, dir, opt, budget, gap);
  if (opt.incomplete != nullptr && !t.incomplete.empty()) *opt.incomplete = true;
}

void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v) {
  trace::TraceSummary sum = trace::Summarize(t);
  report::PackageVerdict p;
  p.package = package;
  p.how = trace::DescribeEnd(sum);
  p.ok = sum.exited && sum.exit_status == 0;
  if (!t.incomplete.empty() && !sum.exited) {
    // The recording stopped, not the program: the tests it did not see end
    // are not failures (go test's own status says whether the binary
    // failed: RunPipeline's go_failure), only those it saw fail are.
    p.how = "its recording stopped early: " + t.incomplete;
    p.ok = true;
    for (const trace::TestOutcome& o : trace::TestOutcomes(t)) {
      if (!o.finished) continue;
      report::TestVerdict tv{package, o.name, o.failed ? report::TestResult::Fail : report::TestResult::Pass};
      p.ok = p.ok && !o.failed;
      v->tests.push_back(std::move(tv));
    }
    v->packages.push_back(std::move(p));
    return;
  }
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
