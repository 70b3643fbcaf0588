// This file implements the progress line (progress.h).
#include "gordian/cli/progress.h"

#include <unistd.h>

#include <fmt/format.h>

namespace gordian::cli {

Progress::Progress(std::string cmd, bool quiet)
    : cmd_(std::move(cmd)), quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0),
      start_(Clock::now()) {}

Progress::~Progress() { Clear(); }

void Progress::Say(const std::string& what) {
  if (quiet_) return;
  Clock::time_point now = Clock::now();
  double secs = std::chrono::duration<double>(now - start_).count();
  std::string line = fmt::format("{}: {} ({:.1f}s)", cmd_, what, secs);
  if (tty_) {
    // \r and erase-to-end: the line is rewritten in place.
    fmt::print(stderr, "\r\x1b[K{}", line);
    std::fflush(stderr);
    shown_ = true;
    return;
  }
  // A log gets plain lines, not one per trace of a thousand-package run.
  if (last_plain_ != Clock::time_point{} && now - last_plain_ < std::chrono::seconds(1)) return;
  last_plain_ = now;
  fmt::print(stderr, "{}\n", line);
}

double Progress::AnalysisInterval() { return isatty(STDERR_FILENO) != 0 ? 0.25 : 5.0; }

void Progress::Clear() {
  if (!shown_) return;
  fmt::print(stderr, "\r\x1b[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace gordian::cli
