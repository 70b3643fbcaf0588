// This file declares RunPipeline, the flow of `gordian test` and `gordian
// run`: record the run (driver/record.h: the stock go command with the
// runtime hooks overlaid), analyse every package's trace
// (analyze_trace.h) and confirm its findings by replay (confirm.h). The
// command prints the report of what it returns (cli/reporting.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gordian/driver/record.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"

namespace gordian::pipeline {

struct PipelineOptions {
  std::string cmd;               // prefixes what is printed ("gordian test")
  driver::RecordOptions record;  // mode, go arguments, environment, -wall, pass-through;
                                 // out_dir is set here
  std::string keep;              // keep the traces in this directory; "" = a scratch
                                 // directory, removed before RunPipeline returns
  // The analysis and the confirmation get record.wall_seconds of their own;
  // when they pass it, this is printed and gordian exits 2.
  std::string deadline_message;
  bool predict = true;           // the predicted detectors
  bool verbose = false;          // the engine's notes
  // The analysis memory budget (analyze_trace.h); 0 = the default. The
  // analyses running at once share it (analysis_pool.h).
  uint64_t memory_budget = 0;
  int jobs = 1;                  // traces analysed and confirmed at once (-p)
  // enabled, the budgets, verbose, runner; the directories, the fallback
  // invocation, the progress and the `reproduce` command are set here.
  ConfirmOptions confirm;
  // Called once the run is recorded and before any analysis, to say what
  // the recording gave (build errors, a run killed at -wall). False: there
  // is nothing to analyse (no trace), RunPipeline stops.
  std::function<bool(const driver::RecordResult&)> recorded;
  // The progress line (run_progress.h says what it counts), its erasure,
  // and holding it back while the program's output passes through
  // (cli/progress.h).
  std::function<void(const std::string&)> progress;
  std::function<void()> progress_clear;
  std::function<void()> progress_pause;
  std::function<void()> progress_resume;
  // Seconds between two updates of the progress line while a trace is being
  // analysed (pipeline/analysis_progress.h).
  double progress_interval = 5.0;
  // Test mode: the top-level tests that fail under recording are run once
  // more without it (driver/plain_rerun.h), at most this many (0: never),
  // so that the report can say which failures are the slowdown's.
  size_t plain_reruns = 20;
};

enum class PipelineEnd {
  kFailed,               // no run: *err says why (a cache directory, the go command)
  kInterrupted,          // the run was interrupted (nothing is analysed)
  kStopped,              // recorded said stop
  kAnalysisInterrupted,  // interrupted while analysing and confirming
  kAnalysed,             // findings and verdict are there
};

struct PipelineResult {
  PipelineEnd end = PipelineEnd::kFailed;
  std::string err;                        // kFailed
  driver::RecordResult record;
  std::vector<report::Finding> findings;  // of every readable trace
  report::Verdict verdict;
  size_t unreadable = 0;                  // traces that could not be read (said on stderr)
  bool replayed = false;                  // confirmation had findings to replay
  std::vector<std::string> degraded;      // what the memory budget dropped, per trace
  size_t incomplete = 0;                  // traces the recorder cut short (said in degraded)
};

// Records, analyses and confirms as opt says. Warnings and the traces that
// cannot be read are printed to stderr as they come.
void RunPipeline(const PipelineOptions& opt, PipelineResult* out);

}  // namespace gordian::pipeline
