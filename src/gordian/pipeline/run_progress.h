// This file owns what the progress line of `gordian test` and `gordian
// run` counts (cli/progress.h shows it): while go test runs, the test
// binaries started (built) and the packages go test has reported on
// (tested); after it, the traces analysed of all and those in progress,
// the tests they ran (and failed), the findings (infos aside, as in the
// terminal report) and the confirmed ones so far. Every worker of -p
// updates it (thread-safe); Line() renders it.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace gordian::pipeline {

class RunProgress {
 public:
  // Recording. Output of go test, in chunks as they come (a line may span
  // two): the package result lines ("ok  \t", "FAIL\t", "?   \t" at the
  // start of a line) are counted.
  void GoTestOutput(std::string_view chunk);
  // The test binaries started so far (their trace directories).
  void SetBuilt(size_t n);

  // Analysis.
  // packages: the traces are test binaries' (gordian test), said so.
  void StartAnalysis(size_t traces, bool packages);
  void TraceStarted();
  // A trace given up to be analysed again (analysis_pool.h).
  void TraceAbandoned();
  // A trace's analysis and confirmation ended with these counts.
  void TraceDone(size_t tests, size_t failed_tests, size_t findings, size_t confirmed);

  // "recording: 5 packages built, 3 tested" while recording; after,
  // "analysed 3 of 12 packages (2 running), 40 tests (1 failed), 5 findings,
  // 2 confirmed", then ": doing" when doing is not empty.
  std::string Line(std::string_view doing = {}) const;

 private:
  mutable std::mutex mu_;
  // Recording.
  size_t built_ = 0;
  size_t tested_ = 0;
  std::string line_start_;  // the first bytes of the current output line
  bool in_line_ = false;     // past the bytes that decide the current line
  // Analysis.
  bool analysing_ = false;
  bool packages_ = false;
  size_t traces_ = 0, analysed_ = 0, running_ = 0;
  size_t tests_ = 0, failed_ = 0, findings_ = 0, confirmed_ = 0;
};

}  // namespace gordian::pipeline
