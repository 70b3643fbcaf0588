// This file implements RunPipeline (pipeline.h).
#include "gordian/pipeline/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

#include "gordian/driver/deadline.h"
#include "gordian/driver/plain_rerun.h"
#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"
#include "gordian/pipeline/analysis_pool.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/pipeline/run_progress.h"
#include "gordian/util/memory.h"

namespace gordian::pipeline {

namespace fs = std::filesystem;

namespace {

// The top-level tests that failed under recording, run once more without
// it: those that pass get passes_without_recording (the report says their
// failure is the slowdown's). Optional work: skipped when the -wall limit
// is near, and its own failure only costs the note.
void RerunFailedTests(const PipelineOptions& opt, report::Verdict* v) {
  // Only tests that failed: one that did not finish (its binary crashed,
  // was killed, or ran past -wall) would take as long again, and its end
  // says nothing of timing.
  std::vector<std::string> names;
  for (const report::TestVerdict& t : v->tests) {
    if (t.result == report::TestResult::Fail && t.name.find('/') == std::string::npos &&
        std::find(names.begin(), names.end(), t.name) == names.end()) {
      names.push_back(t.name);
    }
  }
  if (names.empty() || names.size() > opt.plain_reruns || driver::Interrupted()) return;
  constexpr double kRerunSeconds = 120;
  double left = std::min(driver::SecondsLeftForOptionalWork(), kRerunSeconds);
  if (left < 5) return;
  if (opt.progress) opt.progress(fmt::format("running {} failed test{} once without recording",
                                             names.size(), names.size() == 1 ? "" : "s"));
  std::vector<driver::PlainTestResult> plain;
  std::string err;
  bool ran = driver::RerunWithoutRecording(opt.record.args, opt.record.cwd, names,
                                           std::min(left, opt.record.wall_seconds), &plain, &err);
  if (opt.progress_clear) opt.progress_clear();
  if (!ran) return;
  for (report::TestVerdict& t : v->tests) {
    if (t.result != report::TestResult::Fail) continue;
    for (const driver::PlainTestResult& p : plain) {
      if (p.passed && p.test == t.name && (p.package == t.package || t.package.empty())) {
        t.passes_without_recording = true;
      }
    }
  }
}

// While go test runs: the binaries started and the packages reported, on
// a line held back while go test's own output passes through (Observe is
// RecordOptions::observe).
class GoTestProgress {
 public:
  GoTestProgress(const PipelineOptions& opt, RunProgress* counts, fs::path packages_txt)
      : opt_(opt), counts_(*counts), packages_txt_(std::move(packages_txt)) {}

  void Observe(int stream, std::string_view data, bool pass_through) {
    if (stream != 0) {
      if (stream == 1) counts_.GoTestOutput(data);
      if (pass_through && !data.empty()) {
        if (!paused_ && opt_.progress_pause) opt_.progress_pause();
        paused_ = true;
        at_line_start_[stream] = data.back() == '\n';
      }
      return;
    }
    auto now = std::chrono::steady_clock::now();
    if (now - last_poll_ >= std::chrono::milliseconds(250)) {
      last_poll_ = now;
      std::ifstream in(packages_txt_);
      size_t n = 0;
      for (std::string line; std::getline(in, line);) n += !line.empty();
      counts_.SetBuilt(n);
    }
    // The line comes back only where it cannot cut a line of go test's.
    if (paused_ && at_line_start_[1] && at_line_start_[2]) {
      if (opt_.progress_resume) opt_.progress_resume();
      paused_ = false;
    }
    if (!paused_) opt_.progress(counts_.Line());
  }
  bool paused() const { return paused_; }

 private:
  const PipelineOptions& opt_;
  RunProgress& counts_;
  const fs::path packages_txt_;
  bool paused_ = false;
  bool at_line_start_[3] = {true, true, true};
  std::chrono::steady_clock::time_point last_poll_{};
};

// The confirmation of the recorded traces' findings: the gordian binary
// that replays them, where its work and the schedules go (a scratch run's
// schedules into the cache, pruned first; none without a cache), and the
// plain run to fall back on.
ConfirmOptions ConfirmSetup(const PipelineOptions& opt, const driver::RecordOptions& ro,
                            const driver::RecordResult& res, const std::string& scratch) {
  ConfirmOptions confirm = opt.confirm;
  std::string self = driver::SelfExe();
  confirm.gordian = self.empty() ? "gordian" : self;
  confirm.work_dir = (fs::path(res.out_dir) / "confirm").string();
  if (!opt.keep.empty()) {
    confirm.schedule_dir = (fs::path(res.out_dir) / "schedules").string();
  } else {
    std::string cache, err;
    if (driver::CacheDir(&cache, &err)) {
      driver::PruneSchedules(cache);
      confirm.schedule_dir =
          (fs::path(cache) / "schedules" / fs::path(scratch).filename()).string();
    } else {
      confirm.enabled = false;
    }
  }
  confirm.fallback.mode = "run";
  confirm.fallback.args = ro.args;
  confirm.fallback.cwd = fs::current_path().string();
  return confirm;
}

// What the analysis of one trace gave, kept apart until every trace is
// done.
struct TraceOutcome {
  std::vector<report::Finding> findings;
  std::vector<std::string> degraded;
  report::Verdict verdict;
  bool replayed = false;
  bool incomplete = false;
  bool unreadable = false;
};

// The analysis and confirmation of every recorded trace. The traces are
// analysed and confirmed -p at a time (analysis_pool.h), each into its own
// slot; the slots are merged in the order of the traces, so the report is
// the same whatever -p.
void AnalyzeTraces(const PipelineOptions& opt, const AnalyzeOptions& ao,
                   const ConfirmOptions& confirm_in, const driver::RecordResult& res,
                   bool test_mode, RunProgress* counts_in, PipelineResult* out) {
  RunProgress& counts = *counts_in;
  ConfirmOptions confirm = confirm_in;
  auto say = [&](const std::string& what) {
    if (opt.progress) opt.progress(what);
  };
  auto clear = [&] {
    if (opt.progress_clear) opt.progress_clear();
  };
  std::vector<TraceOutcome> outcomes(res.traces.size());
  // The progress line and the error lines come from every worker.
  std::mutex print_mu;
  std::function<void(const std::string&)> say_locked;
  // Every line says the counts so far, then what this worker is doing.
  if (opt.progress) {
    say_locked = [&](const std::string& what) {
      std::string line = counts.Line(what);
      std::lock_guard<std::mutex> l(print_mu);
      say(line);
    };
  }
  confirm.progress = say_locked;
  counts.StartAnalysis(res.traces.size(), test_mode);
  PoolOptions pool;
  pool.jobs = std::max(opt.jobs, 1);
  pool.memory = opt.memory_budget != 0 ? opt.memory_budget : util::DefaultMemoryBudget();
  pool.stop = [] { return driver::Interrupted(); };
  RunAnalysisPool(res.traces.size(), pool, [&](size_t k, uint64_t budget) {
    const driver::PackageTrace& p = res.traces[k];
    TraceOutcome& o = outcomes[k];
    o = TraceOutcome();
    std::string name = p.import_path.empty() ? p.name : p.import_path;
    std::string what = "analysing " + (name.empty() ? p.trace_dir : name);
    counts.TraceStarted();
    if (say_locked) say_locked(what);
    ThrottledProgress progress(say_locked, what, opt.progress_interval);
    AnalyzeOptions a = ao;
    ConfirmOptions c = confirm;
    const std::string binary = p.trace_dir + "/" + driver::kKeptBinaryFile;
    if (test_mode) {
      driver::KeptTestBinary(p, res, &c.recorded_binary);
    } else if (res.program.path == binary) {
      c.recorded_program = res.program;
    }
    a.confirm = &c;
    a.progress = &progress;
    a.package = name;
    a.memory_budget = budget;
    a.degraded = &o.degraded;
    a.verdict = &o.verdict;
    a.replayed = &o.replayed;
    a.incomplete = &o.incomplete;
    // Only a share smaller than the whole budget is worth a second attempt.
    bool gave_up = false;
    if (budget < pool.memory) a.gave_up = &gave_up;
    std::string err;
    if (!AnalyzeTrace(opt.cmd, p.trace_dir, a, &o.findings, &err)) {
      std::lock_guard<std::mutex> l(print_mu);
      clear();
      fmt::print(stderr, "{}: {}: {}\n", opt.cmd,
                 p.import_path.empty() ? p.trace_dir : p.import_path, err);
      o.unreadable = true;
    }
    if (gave_up) {
      counts.TraceAbandoned();
      return Attempt::kOverBudget;
    }
    // Top-level tests, as the report counts them.
    size_t tests = 0, failed = 0, shown = 0, confirmed = 0;
    for (const report::TestVerdict& t : o.verdict.tests) {
      if (t.name.find('/') != std::string::npos) continue;
      tests++;
      failed += t.result != report::TestResult::Pass;
    }
    for (const report::Finding& f : o.findings) {
      shown += f.severity != report::Severity::Info;
      confirmed += f.status == report::Status::Confirmed;
    }
    counts.TraceDone(tests, failed, shown, confirmed);
    // The binary served this trace's replays; a kept trace directory
    // (-keep) holds traces, not binaries.
    std::error_code ec;
    fs::remove(binary, ec);
    return Attempt::kDone;
  });
  for (TraceOutcome& o : outcomes) {
    std::move(o.findings.begin(), o.findings.end(), std::back_inserter(out->findings));
    std::move(o.degraded.begin(), o.degraded.end(), std::back_inserter(out->degraded));
    std::move(o.verdict.packages.begin(), o.verdict.packages.end(),
              std::back_inserter(out->verdict.packages));
    std::move(o.verdict.tests.begin(), o.verdict.tests.end(),
              std::back_inserter(out->verdict.tests));
    out->replayed = out->replayed || o.replayed;
    out->incomplete += o.incomplete;
    if (o.unreadable) out->unreadable++;
  }
  clear();
}

}  // namespace

void RunPipeline(const PipelineOptions& opt, PipelineResult* out) {
  *out = PipelineResult();
  driver::RecordOptions ro = opt.record;
  std::string scratch;
  if (!opt.keep.empty()) {
    ro.out_dir = opt.keep;
  } else {
    std::string cache;
    if (!driver::CacheDir(&cache, &out->err) || !driver::MakeRunDir(cache, &scratch, &out->err)) {
      out->end = PipelineEnd::kFailed;
      return;
    }
    ro.out_dir = scratch + "/trace";
  }
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      if (!dir.empty()) driver::RemoveTree(dir);
    }
  } cleanup{scratch};
  // The replays that confirm a trace's findings run the binary that was
  // recorded (a package's test binary, or the program) instead of a go
  // test or go build that links it again.
  ro.keep_binary = opt.confirm.enabled;

  RunProgress counts;
  const bool test_mode = ro.mode == driver::RecordMode::kTest;
  GoTestProgress watch(opt, &counts, fs::absolute(ro.out_dir) / "packages.txt");
  if (test_mode && opt.progress) {
    ro.observe = [&watch, pass_through = ro.pass_through](int stream, std::string_view data) {
      watch.Observe(stream, data, pass_through);
    };
  }
  driver::RecordResult& res = out->record;
  bool recorded = driver::Record(ro, &res, &out->err);
  if (watch.paused() && opt.progress_resume) opt.progress_resume();
  if (opt.progress_clear) opt.progress_clear();
  // A run that did not end by itself proves nothing: no analysis, no
  // replay, no finding; the scratch directories go on the way out.
  if (driver::Interrupted() || res.run.interrupted) {
    out->end = PipelineEnd::kInterrupted;
    return;
  }
  if (!recorded) {
    out->end = PipelineEnd::kFailed;
    return;
  }
  if (opt.recorded && !opt.recorded(res)) {
    out->end = PipelineEnd::kStopped;
    return;
  }

  // go test -p N starts the test binaries (and so lists their traces) in
  // an order that varies from run to run: the report follows the import
  // paths instead, whatever -p.
  std::stable_sort(res.traces.begin(), res.traces.end(),
                   [](const driver::PackageTrace& a, const driver::PackageTrace& b) {
                     return a.import_path < b.import_path;
                   });
  // The analysis and the confirmation after it get -wall of their own.
  driver::ArmDeadline(ro.wall_seconds, opt.deadline_message);
  out->verdict.build_failed = res.build_failed;
  AnalyzeOptions ao;
  ao.predict = opt.predict;
  ao.verbose = opt.verbose;
  ao.memory_budget = opt.memory_budget;
  ConfirmOptions confirm = ConfirmSetup(opt, ro, res, scratch);
  ao.confirm = &confirm;
  AnalyzeTraces(opt, ao, confirm, res, test_mode, &counts, out);
  if (driver::Interrupted()) {
    out->end = PipelineEnd::kAnalysisInterrupted;
    return;
  }
  // go test failed and no test or binary says why (vet, a refused flag, a
  // binary that left no trace): the verdict keeps the failure.
  if (!res.run.Succeeded() && !out->verdict.Failed()) {
    out->verdict.go_failure = fmt::format("{} failed ({}); see its output above",
                                          test_mode ? "go test" : "the program",
                                          res.run.Describe());
  }
  if (test_mode) RerunFailedTests(opt, &out->verdict);
  out->end = PipelineEnd::kAnalysed;
}

}  // namespace gordian::pipeline
