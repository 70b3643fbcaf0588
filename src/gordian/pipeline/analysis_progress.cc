// This file implements the throttled progress line of the analysis
// (analysis_progress.h).
#include "gordian/pipeline/analysis_progress.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace gordian::pipeline {

namespace {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string Count(uint64_t n) {
  if (n < 10'000) return fmt::format("{}", n);
  if (n < 1'000'000) return fmt::format("{:.0f}k", double(n) / 1e3);
  return fmt::format("{:.1f}M", double(n) / 1e6);
}

}  // namespace

ThrottledProgress::ThrottledProgress(std::function<void(const std::string&)> say,
                                     std::string prefix, double interval_seconds,
                                     std::function<double()> now)
    : say_(std::move(say)),
      prefix_(std::move(prefix)),
      interval_(interval_seconds),
      now_(now ? std::move(now) : SteadySeconds),
      start_(now_()) {}

std::string ThrottledProgress::Describe(std::string_view phase, uint64_t done, uint64_t total) {
  if (total == 0) return std::string(phase);
  return fmt::format("{}: {} of {} records", phase, Count(std::min(done, total)), Count(total));
}

void ThrottledProgress::Update(std::string_view phase, uint64_t done, uint64_t total) {
  if (!say_) return;
  double t = now_();
  if (t - start_ < kQuietSeconds) return;
  if (last_ >= 0 && t - last_ < interval_) return;
  last_ = t;
  std::string what = Describe(phase, done, total);
  say_(prefix_.empty() ? what : prefix_ + ": " + what);
}

}  // namespace gordian::pipeline
