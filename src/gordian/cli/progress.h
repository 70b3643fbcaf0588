// This file declares the progress line of long commands: after go test has
// finished, `gordian test` says what it is doing (analysing trace K of N,
// replaying to confirm), with the time so far. On a terminal it is one line
// updated in place and erased when the report starts; when stderr is not a
// terminal (CI logs) each step is a plain line, at most one per second.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace gordian::cli {

class Progress {
 public:
  // cmd prefixes every line ("gordian test"). Quiet: prints nothing.
  Progress(std::string cmd, bool quiet);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Shows "cmd: what (12.3s)".
  void Say(const std::string& what);
  // Erases the updating line (before the report is printed).
  void Clear();
  // How often the analysis may update the line (pipeline/analysis_progress.h):
  // often on a terminal, every few seconds in a log.
  static double AnalysisInterval();

 private:
  using Clock = std::chrono::steady_clock;
  std::string cmd_;
  bool quiet_;
  bool tty_;
  bool shown_ = false;  // a line is on the terminal
  Clock::time_point start_;
  Clock::time_point last_plain_{};
};

}  // namespace gordian::cli
