// This file owns PhaseTimer: the wall time and memory of each phase of the
// analysis (reading, index, happens-before, each detector, confirmation),
// printed to stderr when GORDIAN_TIMING=1 is set, for finding where a large
// trace spends its time. Off, a phase costs one branch. Header-only so that
// every module can time itself without linking util.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace gordian::util {

class PhaseTimer {
 public:
  // scope names the timed unit in each line ("analyze", "predict", ...).
  explicit PhaseTimer(const char* scope) : scope_(scope), on_(Enabled()) {
    if (on_) last_ = std::chrono::steady_clock::now();
  }

  // Ends the phase that started at the previous Lap (or the construction):
  // prints its wall time, the resident memory now and the peak so far.
  void Lap(const char* phase) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    fmt::print(stderr, "gordian timing: {:<10} {:<28} {:9.1f} ms  rss {:6} MB  peak {:6} MB\n",
               scope_, phase, ms, RssMb(), ru.ru_maxrss / 1024);
  }

  static bool Enabled() {
    static const bool on = [] {
      const char* v = std::getenv("GORDIAN_TIMING");
      return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
    }();
    return on;
  }

 private:
  // The resident set now (the peak alone hides what a phase frees).
  static long RssMb() {
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return -1;
    long size = 0, rss = 0;
    int n = std::fscanf(f, "%ld %ld", &size, &rss);
    std::fclose(f);
    return n == 2 ? rss * (sysconf(_SC_PAGESIZE) / 1024) / 1024 : -1;
  }

  const char* scope_;
  bool on_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace gordian::util
