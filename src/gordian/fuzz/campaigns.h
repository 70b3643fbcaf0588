// This file declares the flow of `gordian fuzz`: one campaign of schedules
// per test (campaign.h) over the tests of some packages, within bounds that
// hold whatever the program does, and without losing what was found.
//
//  1. The build and the tests: one recording that runs no test (go test
//     with a -run that matches nothing) builds each package with the hooks
//     and says how to run its tests again; go test -list names the tests.
//  2. A campaign per test, in go test's order. Its first run is the test
//     alone and free: a test that does not end within the run wall is
//     reported by name ("TestX did not finish in 30s; not fuzzed") and
//     skipped. Each campaign ends within its budget + the run wall + 5 s
//     (CampaignOptions::hard_seconds); with a total, the tests share it.
//  3. Every bug is handed to `found` the moment it is found (the command
//     writes its report files then), and the schedule that reproduces it is
//     written to the test's regression directory in the package
//     (testdata/gordian-fuzz/<Test>/), as go test -fuzz writes a failing
//     input to testdata/fuzz/. The working corpus (the schedules that add
//     coverage) lives in the cache. An interrupt ends the campaigns; what
//     was found is returned all the same.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gordian/fuzz/strategy.h"
#include "gordian/report/finding.h"
#include "gordian/report/json.h"
#include "gordian/report/verdict.h"

namespace gordian::fuzz {

struct CampaignsOptions {
  std::string cmd = "gordian fuzz";
  std::vector<std::string> go_args;  // go test flags and packages
  std::string cwd;                   // where go test runs ("": the current directory)
  double budget_seconds = 60;        // per test: stop starting runs after this
  double stale_seconds = 10;         // per test: ... or when coverage stops growing
  double run_wall_seconds = 30;      // one run (a test that runs longer is not fuzzed)
  double wall_seconds = 600;         // the build and the listing
  // The whole campaign, shared among the tests (each test's budget and run
  // wall shrink so that all of them fit); 0: no total.
  double total_seconds = 0;
  size_t max_runs = 0;               // per test; 0: no limit
  int jobs = 1;
  uint64_t seed = 0;
  bool exact = false;
  bool go_test_per_run = false;      // go test per run instead of the binary built once
  bool confirm = true;
  bool verbose = false;
  // The working corpus: "" the cache (cache_dir/fuzz-corpus/...), "off"
  // none, else DIR/<package>/<test>/.
  std::string corpus;
  // The schedules that reproduce a bug go to
  // <package dir>/testdata/gordian-fuzz/<Test>/ (and run first next time),
  // or with a corpus directory named (-corpus DIR) into the test's corpus
  // there; false: nowhere (gordian fuzz -corpus off).
  bool write_regressions = true;
  // GORDIAN_TRACE_MAX_MB of each run: 4M records, a few seconds of
  // analysis; a run past it is cut short (and said).
  uint32_t run_trace_max_mb = 128;
  std::vector<Strategy*> strategies;
  std::string cache_dir;             // the gordian cache (required)
  std::string scratch_dir;           // this command's scratch directory (required)
  std::string schedule_dir;          // where reproduce schedules are kept (required)
  std::string self_exe;              // the gordian binary named in reproduce commands

  // What the command prints. say: one line for the user (not a progress
  // line); progress: the updating line; progress_clear: erase it.
  std::function<void(const std::string&)> say;
  std::function<void(const std::string&)> progress;
  std::function<void()> progress_clear;
  // Called with every finding so far each time one is found or better
  // proven, one call at a time: the command rewrites its report files.
  std::function<void(const std::vector<report::Finding>&)> found;
};

struct CampaignsResult {
  enum class End {
    kDone,         // every test was fuzzed (or skipped, said why)
    kInterrupted,  // an interrupt or the total ended it early: findings hold what was found
    kFailed,       // nothing could be fuzzed: err says why
  };
  End end = End::kFailed;
  std::string err;
  bool build_failed = false;
  std::vector<report::Finding> findings;
  report::Verdict verdict;  // each test's first, free run
  report::FuzzReport fuzz;  // the seed, the tests that failed for other reasons
  size_t tests = 0;         // tests selected
  size_t fuzzed = 0;        // tests whose campaign ran to its end
  std::vector<std::string> not_fuzzed;  // "TestX did not finish in 30s", ...
};

void RunCampaigns(const CampaignsOptions& opt, CampaignsResult* out);

// The directories of one `gordian fuzz` command: its scratch directory, made
// in the gordian cache (whose old reproduce schedules are pruned first) and
// removed when this is destroyed, and where the schedules that reproduce
// its bugs are kept (in the cache, as gordian test keeps them).
class CampaignDirs {
 public:
  CampaignDirs() = default;
  CampaignDirs(const CampaignDirs&) = delete;
  CampaignDirs& operator=(const CampaignDirs&) = delete;
  ~CampaignDirs();
  // Makes the scratch directory; false (err says why) when the cache or
  // the directory cannot be made.
  bool Make(std::string* err);
  // Sets opt's directories (cache, scratch, schedules) and the gordian
  // binary named in reproduce commands.
  void SetUp(CampaignsOptions* opt) const;

 private:
  std::string cache_, scratch_;
};

// Where the working corpus of a test lives by default: in the cache, by
// package directory and test ("CACHE/fuzz-corpus/<hash of dir>/<Test>").
std::string CacheCorpusDir(const std::string& cache_dir, const std::string& package_dir,
                           const std::string& test);

// The per-test budget, run wall and hard bound when total seconds are
// shared by tests tests (total 0: the given budget and run wall; the hard
// bound is budget + run wall + 5 s either way).
struct TestBounds {
  double budget = 0, run_wall = 0, hard = 0;
};
TestBounds BoundsFor(double budget, double run_wall, double total_left, size_t tests_left);

}  // namespace gordian::fuzz
