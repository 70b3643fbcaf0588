// This file implements RunPipeline (pipeline.h).
#include "gordian/pipeline/pipeline.h"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "gordian/driver/deadline.h"
#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/analyze_trace.h"

namespace gordian::pipeline {

namespace fs = std::filesystem;

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

  driver::RecordResult& res = out->record;
  bool recorded = driver::Record(ro, &res, &out->err);
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

  // The analysis and the confirmation after it get -wall of their own.
  driver::ArmDeadline(ro.wall_seconds, opt.deadline_message);
  auto say = [&](const std::string& what) {
    if (opt.progress) opt.progress(what);
  };
  auto clear = [&] {
    if (opt.progress_clear) opt.progress_clear();
  };
  bool test_mode = ro.mode == driver::RecordMode::kTest;
  out->verdict.build_failed = res.build_failed;
  AnalyzeOptions ao;
  ao.predict = opt.predict;
  ao.verbose = opt.verbose;
  ao.memory_budget = opt.memory_budget;
  ao.degraded = &out->degraded;
  ao.verdict = &out->verdict;
  ao.replayed = &out->replayed;
  ConfirmOptions confirm = opt.confirm;
  confirm.progress = opt.progress;
  std::string self = driver::SelfExe();
  confirm.gordian = self.empty() ? "gordian" : self;
  confirm.work_dir = (fs::path(res.out_dir) / "confirm").string();
  std::string err;
  if (!opt.keep.empty()) {
    confirm.schedule_dir = (fs::path(res.out_dir) / "schedules").string();
  } else {
    std::string cache;
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
  ao.confirm = &confirm;
  for (size_t k = 0; k < res.traces.size(); k++) {
    const driver::PackageTrace& p = res.traces[k];
    std::string name = p.import_path.empty() ? p.name : p.import_path;
    std::string what = fmt::format("analysing {} of {}{}{}", k + 1, res.traces.size(),
                                   test_mode ? " packages" : " traces",
                                   name.empty() ? "" : ": " + name);
    say(what);
    ThrottledProgress progress(opt.progress, what, opt.progress_interval);
    ao.progress = &progress;
    ao.package = name;
    if (driver::Interrupted()) break;
    if (!AnalyzeTrace(opt.cmd, p.trace_dir, ao, &out->findings, &err)) {
      clear();
      fmt::print(stderr, "{}: {}: {}\n", opt.cmd,
                 p.import_path.empty() ? p.trace_dir : p.import_path, err);
      out->unreadable++;
    }
    ao.progress = nullptr;
  }
  clear();
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
  out->end = PipelineEnd::kAnalysed;
}

}  // namespace gordian::pipeline
