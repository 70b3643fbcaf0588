// This file declares a fuzzing campaign: the schedules of one test, run
// until the budget is spent or coverage stops growing. It starts with a
// free run (an empty schedule), and then, with -j workers in parallel:
// takes the next candidate of the worklist (first proposed, first run),
// runs it through the pipeline's ScheduleRunner seam, analyses the run's
// trace with every detector (pipeline::AnalyzeRead), adds the run's
// coverage (coverage.h), keeps the findings no earlier run had (one per
// bug: its kind and primary site), confirms each new bug by replay
// (pipeline::ConfirmTrace: a predicted bug's rewrite, an occurred bug's
// recorded schedule) and shows the run to every strategy, whose proposals
// join the worklist unless their key was proposed before. When the
// worklist is empty it runs the test freely again (the runtime's own
// scheduling still varies).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gordian/fuzz/strategy.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"
#include "gordian/schedule/schedule.h"

namespace gordian::fuzz {

struct CampaignOptions {
  std::string cmd = "gordian fuzz";  // prefixes warnings
  schedule::Invocation invocation;   // how to run the test (mode test, its -test.run)
  std::string test;                  // the test's name (findings without one get it)
  std::string package;               // for the verdict
  double budget_seconds = 60;        // stop starting runs after this
  double stale_seconds = 10;         // ... or when coverage has not grown for this long
  size_t max_runs = 0;               // 0: no limit
  int jobs = 1;                      // runs at once
  std::string work_dir;              // the runs' schedules and traces (scratch, required)
  pipeline::RunOptions run;          // per run (out_dir is set per run)
  pipeline::ConfirmOptions confirm;  // confirmation of new bugs (its runner: below)
  pipeline::ScheduleRunner* runner = nullptr;  // nullptr: the go command
  std::vector<Strategy*> strategies;           // nullptr entries not allowed
};

struct CampaignStats {
  double elapsed = 0;
  size_t runs = 0;           // runs that gave a trace
  size_t failed_runs = 0;    // runs without a trace (the runner's error)
  size_t killed_runs = 0;    // runs killed at the per-run wall limit (RunOptions::wall_seconds)
  size_t coverage = 0;       // signals covered
  size_t bugs = 0;           // distinct findings of severity bug
  size_t worklist = 0;       // candidates waiting
  std::string stopped;       // why it ended: "budget", "stale", "runs", "interrupted"
};

struct CampaignResult {
  std::vector<report::Finding> findings;  // one per bug, in the order found
  std::vector<double> found_at;           // seconds into the campaign, parallel to findings
  std::vector<std::string> found_by;      // the candidate whose run found it, parallel too
  report::Verdict verdict;                // of the first (free) run: does the test pass plainly
  bool have_verdict = false;
  std::vector<std::string> errors;        // distinct runner errors
  CampaignStats stats;
};

// Runs the campaign. progress, when set, is told the stats after every run
// (from the worker that finished it, one call at a time).
void RunCampaign(const CampaignOptions& opt, CampaignResult* out,
                 const std::function<void(const CampaignStats&)>& progress = {});

}  // namespace gordian::fuzz
