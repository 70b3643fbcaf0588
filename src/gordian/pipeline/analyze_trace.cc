// This file implements the analysis of one trace (analyze_trace.h).
#include "gordian/pipeline/analyze_trace.h"

#include <cstdio>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/race/race_findings.h"
#include "gordian/report/columns.h"
#include "gordian/trace/summary.h"
#include "gordian/trace/trace.h"
#include "gordian/util/phase_timing.h"

namespace gordian::pipeline {

bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err) {
  util::PhaseTimer timer("analyze");  // GORDIAN_TIMING=1
  trace::Trace t;
  if (!trace::ReadTrace(dir, &t, err)) return false;
  timer.Lap("read trace");
  for (const std::string& w : t.warnings) fmt::print(stderr, "{}: warning: {}: {}\n", cmd, dir, w);
  if (opt.verbose) {
    for (const std::string& n : t.notes) fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, n);
  }
  if (opt.verdict != nullptr) AddTraceVerdict(t, opt.package, opt.verdict);
  // The one index of the trace: the engine, the occurred and the predictive
  // detectors all read it.
  hb::OpIndex ops;
  ops.Build(t);
  timer.Lap("op index");
  hb::HappensBefore hb;
  std::string hb_err;
  bool have_hb = hb.Build(ops, &hb_err);
  timer.Lap("happens-before");
  if (!have_hb) {
    fmt::print(stderr, "{}: warning: {}: no happens-before analysis: {}\n", cmd, dir, hb_err);
  }
  if (opt.verbose) {
    for (const std::string& w : hb.warnings()) {
      fmt::print(stderr, "{}: note: {}: {}\n", cmd, dir, w);
    }
  }
  detect::OccurredOptions oo;
  oo.ops = &ops;
  if (have_hb) {
    oo.hb = &hb;
    oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* partners) {
      detect::FindPossiblePartners(hb, rec, partners);
    };
  }
  std::vector<report::Finding> found = detect::DetectOccurred(t, oo);
  timer.Lap("occurred (all)");
  // -race: Go's race detector reports, from the log beside the trace.
  if (size_t n = race::AddRaceFindings(dir, t, &found); n > 0) {
    fmt::print(stderr, "{}: warning: {}: {} race report(s) without a location in the program\n",
               cmd, dir, n);
  }
  if (have_hb && opt.predict) {
    size_t first = found.size();
    detect::PredictBugs(t, hb, &found);
    // The terminal report names every goroutine with its spawn site.
    detect::OccurredIndex ix(ops);
    for (size_t i = first; i < found.size(); i++) detect::FillGoroutines(ix, &found[i]);
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
  return true;
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
