// This file implements the command's deadline (deadline.h) with an interval
// timer: SIGALRM comes at the deadline and then every 100 ms, and the first
// one that finds no child running ends gordian.
#include "gordian/driver/deadline.h"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "gordian/driver/process.h"
#include "gordian/driver/scratch_dirs.h"

namespace gordian::driver {
namespace {

using Clock = std::chrono::steady_clock;

// The message, copied where the signal handler can write it without
// allocating (async-signal-safe: write and _exit only).
char g_message[512];
size_t g_message_len = 0;
std::atomic<bool> g_armed{false};
std::atomic<Clock::rep> g_deadline{0};  // Clock ticks since its epoch
std::atomic<double> g_armed_seconds{0};  // the limit it was armed with

// The status of a command that did not finish its work (cli's kExitToolError).
constexpr int kExitStatus = 2;

void OnAlarm(int) {
  if (!g_armed.load() || ChildRunning()) return;  // RunProcess ends the child itself
  ssize_t ignored = write(2, g_message, g_message_len);
  (void)ignored;
  RemoveScratchDirsNow();
  _exit(kExitStatus);
}

void SetTimer(double seconds) {
  struct itimerval it;
  memset(&it, 0, sizeof it);
  if (seconds > 0) {
    auto us = static_cast<long long>(seconds * 1e6);
    if (us < 1) us = 1;
    it.it_value.tv_sec = static_cast<time_t>(us / 1000000);
    it.it_value.tv_usec = static_cast<suseconds_t>(us % 1000000);
    it.it_interval.tv_usec = 100000;
  }
  setitimer(ITIMER_REAL, &it, nullptr);
}

}  // namespace

void ArmDeadline(double seconds, const std::string& message) {
  DisarmDeadline();
  // Beyond a year the limit is no limit (and the arithmetic below stays
  // far from overflow).
  if (!(seconds > 0) || !std::isfinite(seconds) || seconds > 365.0 * 24 * 3600) return;
  size_t n = std::min(message.size(), sizeof g_message - 2);
  memcpy(g_message, message.data(), n);
  g_message[n] = '\n';
  g_message_len = n + 1;
  auto at = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(seconds));
  g_deadline.store(at.time_since_epoch().count());
  g_armed_seconds.store(seconds);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = OnAlarm;
  sa.sa_flags = SA_RESTART;  // reads and writes in progress go on
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, nullptr);
  g_armed.store(true);
  SetTimer(seconds);
}

void DisarmDeadline() {
  g_armed.store(false);
  SetTimer(0);
}

double SecondsLeft() {
  if (!g_armed.load()) return std::numeric_limits<double>::infinity();
  auto left = Clock::time_point(Clock::duration(g_deadline.load())) - Clock::now();
  return std::max(0.0, std::chrono::duration<double>(left).count());
}

double SecondsLeftForOptionalWork() {
  double left = SecondsLeft();
  if (std::isinf(left)) return left;
  return std::max(0.0, left - std::max(5.0, g_armed_seconds.load() / 5));
}

}  // namespace gordian::driver
