// This file declares a fuzzing campaign: the schedules of one test, run
// until the budget is spent or coverage stops growing. It starts with a
// free run (an empty schedule) and the schedules of the test's corpus
// (corpus.h), and then, with -j workers in parallel: takes the next
// candidate of the worklist (first proposed, first run; a free run when
// the worklist is empty: the runtime's own scheduling still varies), runs
// it through the pipeline's ScheduleRunner seam, analyses the run's trace
// with every detector (pipeline::AnalyzeRead), adds the run's coverage
// (coverage.h), keeps the findings no earlier run had (one per bug: its
// kind and primary site), confirms each new bug by replay
// (pipeline::ConfirmTrace: a predicted bug's rewrite, an occurred bug's
// recorded schedule) and shows the run to every strategy, whose proposals
// join the worklist unless their key was proposed before. A schedule whose
// run adds coverage goes to the corpus. Every random choice comes from
// one seed (rng.h).
#pragma once

#include <cstddef>
#include <cstdint>
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
  // Everything ends by this many seconds after the start, whatever the
  // program does: the runs in flight are killed at run.wall_seconds, and
  // after the budget no run is mutated and confirmations get only what is
  // left (0: budget + run wall + 5 s).
  double hard_seconds = 0;
  double stale_seconds = 10;         // ... or when coverage has not grown for this long
  size_t max_runs = 0;               // 0: no limit
  int jobs = 1;                      // runs at once
  std::string work_dir;              // the runs' schedules and traces (scratch, required)
  pipeline::RunOptions run;          // per run (out_dir is set per run)
  pipeline::ConfirmOptions confirm;  // confirmation of new bugs (its runner: below)
  pipeline::ScheduleRunner* runner = nullptr;  // nullptr: the go command
  std::vector<Strategy*> strategies;           // nullptr entries not allowed
  // Every random choice comes from this seed (rng.h): run k's strategies
  // draw from Rng::ForRun(seed, k). With -j 1 (or with exact) the same
  // seed and the same runs give the same proposals in the same order;
  // with more workers and not exact, the order runs finish in varies it.
  uint64_t seed = 0;
  // With several workers: run m picks its candidate only after the
  // proposals of runs 0..m-jobs have joined the worklist, in the order of
  // their numbers (it waits for run m-jobs to finish), so the order runs
  // finish in does not change what runs. Costs runs per second when runs
  // vary in length (a worker waits for a slow run); off, proposals join as
  // runs finish.
  bool exact = false;
  // The test's corpus (corpus.h): its schedules run first, after the free
  // run; a schedule of this campaign whose run adds coverage is stored
  // there. "": none.
  std::string corpus_dir;
  // The schedules that showed a bug in earlier campaigns (the package's
  // testdata/gordian-fuzz/<Test>/): they run before the corpus, and are
  // never written here (campaigns.h writes them). "": none.
  std::string regression_dir;
  // Told each bug as soon as it is found or better proven (confirmed, given
  // a reproduce command), with the run's schedule, from the worker that ran
  // it, one call at a time: so that a campaign killed later loses nothing.
  std::function<void(const report::Finding&, const schedule::Schedule&)> found;
  // A run whose trace has more records than this is analysed (its bugs
  // count) but not shown to the strategies, whose proposals would take too
  // long to make.
  size_t max_mutated_records = 4u << 20;
};

struct CampaignStats {
  double elapsed = 0;
  size_t runs = 0;           // runs that gave a trace
  size_t failed_runs = 0;    // runs without a trace (the runner's error)
  size_t killed_runs = 0;    // runs killed at the per-run wall limit (RunOptions::wall_seconds)
  size_t coverage = 0;       // signals covered
  size_t bugs = 0;           // distinct findings of severity bug
  size_t worklist = 0;       // candidates waiting
  size_t corpus_read = 0;    // schedules read from the corpus directory
  size_t corpus_added = 0;   // schedules this campaign stored there
  // Why it ended: "budget", "stale", "runs", "interrupted", "deadline"
  // (past hard_seconds), "unfinished" (the test's first, free run did not
  // end by itself within the run wall: the test was not fuzzed).
  std::string stopped;
  size_t truncated_runs = 0; // runs whose trace the recorder cut short (trace_max_mb)
};

// Runs in which the test failed with no bug that occurred in the run to
// explain it (a t.Fatal on a value, a panic of its own): reported once per
// campaign, with the first such run's reason.
struct TestFailures {
  size_t runs = 0;        // how many runs
  double first_at = 0;    // seconds into the campaign
  std::string first_by;   // the candidate of the first
  std::string output;     // go test's lines about it (test_failure.h)
};

struct CampaignResult {
  std::vector<report::Finding> findings;  // one per bug, in the order found
  std::vector<double> found_at;           // seconds into the campaign, parallel to findings
  std::vector<std::string> found_by;      // the candidate whose run found it, parallel too
  // The keys of the candidates run, in the order they were started (the
  // free runs' "free run" included): what -seed makes repeatable.
  std::vector<std::string> ran;
  report::Verdict verdict;                // of the first (free) run: does the test pass plainly
  bool have_verdict = false;
  std::vector<std::string> errors;        // distinct runner errors
  std::vector<std::string> warnings;      // the corpus's unreadable files, failed writes
  TestFailures test_failures;
  CampaignStats stats;
};

// Runs the campaign. progress, when set, is told the stats after every run
// (from the worker that finished it, one call at a time).
void RunCampaign(const CampaignOptions& opt, CampaignResult* out,
                 const std::function<void(const CampaignStats&)>& progress = {});

}  // namespace gordian::fuzz
