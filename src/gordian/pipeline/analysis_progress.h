// This file declares the progress of the analysis of one trace: which phase
// it is in (reading, indexing, happens-before, occurred, predicting) and how
// many of the trace's records that phase has done. The analysis reports to
// the AnalysisProgress interface; tests capture it with their own.
// ThrottledProgress is the one gordian's commands use: nothing for an
// analysis that ends within a second, then one line at most every
// `interval` seconds (a short one on a terminal, where the line updates in
// place, a few seconds in CI logs, where each is a new line).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gordian::pipeline {

class AnalysisProgress {
 public:
  virtual ~AnalysisProgress() = default;
  // done of total records (total 0: the phase has no record count).
  virtual void Update(std::string_view phase, uint64_t done, uint64_t total) = 0;
};

class ThrottledProgress : public AnalysisProgress {
 public:
  // say shows one line (cli/progress.h: updated in place on a terminal);
  // prefix leads it ("analysing 1 of 3 packages: x"). now returns seconds
  // on a monotonic clock (default: steady_clock), for tests.
  ThrottledProgress(std::function<void(const std::string&)> say, std::string prefix,
                    double interval_seconds, std::function<double()> now = {});
  void Update(std::string_view phase, uint64_t done, uint64_t total) override;
  // "reading", "happens-before: 1.2M of 5.0M records": what a line says.
  static std::string Describe(std::string_view phase, uint64_t done, uint64_t total);

  static constexpr double kQuietSeconds = 1.0;  // nothing before this

 private:
  std::function<void(const std::string&)> say_;
  std::string prefix_;
  double interval_;
  std::function<double()> now_;
  double start_;
  double last_ = -1;  // when the last line was shown; -1: none yet
};

}  // namespace gordian::pipeline
