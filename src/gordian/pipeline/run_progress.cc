// This file implements the counts of the progress line (run_progress.h).
#include "gordian/pipeline/run_progress.h"

#include <fmt/format.h>

namespace gordian::pipeline {

namespace {

// go test's line for each package it ran: "ok  \tpkg\t0.1s",
// "FAIL\tpkg [build failed]", "?   \tpkg\t[no test files]".
bool IsPackageLine(std::string_view start) {
  return start == "ok  \t" || start == "FAIL\t" || start == "?   \t";
}

constexpr size_t kDecidingBytes = 5;

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

void RunProgress::GoTestOutput(std::string_view chunk) {
  std::lock_guard<std::mutex> l(mu_);
  for (char c : chunk) {
    if (c == '\n') {
      line_start_.clear();
      in_line_ = false;
      continue;
    }
    if (in_line_) continue;
    line_start_ += c;
    if (line_start_.size() == kDecidingBytes) {
      if (IsPackageLine(line_start_)) tested_++;
      in_line_ = true;
    }
  }
}

void RunProgress::SetBuilt(size_t n) {
  std::lock_guard<std::mutex> l(mu_);
  built_ = n;
}

void RunProgress::StartAnalysis(size_t traces, bool packages) {
  std::lock_guard<std::mutex> l(mu_);
  analysing_ = true;
  packages_ = packages;
  traces_ = traces;
}

void RunProgress::TraceAbandoned() {
  std::lock_guard<std::mutex> l(mu_);
  if (running_ > 0) running_--;
}

void RunProgress::TraceStarted() {
  std::lock_guard<std::mutex> l(mu_);
  running_++;
}

void RunProgress::TraceDone(size_t tests, size_t failed_tests, size_t findings, size_t confirmed) {
  std::lock_guard<std::mutex> l(mu_);
  if (running_ > 0) running_--;
  analysed_++;
  tests_ += tests;
  failed_ += failed_tests;
  findings_ += findings;
  confirmed_ += confirmed;
}

std::string RunProgress::Line(std::string_view doing) const {
  std::lock_guard<std::mutex> l(mu_);
  std::string s;
  if (!analysing_) {
    s = fmt::format("recording: {} built, {} tested", Plural(built_, "package", "packages"),
                    tested_);
  } else {
    s = fmt::format("analysed {} of {}", analysed_,
                    packages_ ? Plural(traces_, "package", "packages")
                              : Plural(traces_, "trace", "traces"));
    if (running_ > 0) s += fmt::format(" ({} running)", running_);
    s += ", " + Plural(tests_, "test", "tests");
    if (failed_ > 0) s += fmt::format(" ({} failed)", failed_);
    s += ", " + Plural(findings_, "finding", "findings");
    if (confirmed_ > 0) s += fmt::format(", {} confirmed", confirmed_);
  }
  if (!doing.empty()) s += fmt::format(": {}", doing);
  return s;
}

}  // namespace gordian::pipeline
