// This file implements the progress line (progress.h).
#include "gordian/cli/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace gordian::cli {

namespace {

class Stderr final : public ProgressTerminal {
 public:
  bool IsTty() override { return isatty(STDERR_FILENO) != 0; }
  int Width() override {
    struct winsize ws {};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char* c = getenv("COLUMNS");
    return c != nullptr ? atoi(c) : 0;
  }
  void Write(std::string_view s) override {
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
  }
};

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Cuts s to at most n columns (one per code point; the line is ASCII but
// for the names in it), so that the terminal never wraps it: a wrapped line
// is not erased by a carriage return.
std::string CutToColumns(const std::string& s, int n) {
  if (n <= 0) return s;
  int cols = 0;
  for (size_t i = 0; i < s.size(); i++) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (++cols > n) return s.substr(0, i);
  }
  return s;
}

}  // namespace

std::unique_ptr<ProgressTerminal> StderrTerminal() { return std::make_unique<Stderr>(); }

Progress::Progress(std::string cmd, bool quiet)
    : Progress(std::move(cmd), quiet, StderrTerminal(), {}) {}

Progress::Progress(std::string cmd, bool quiet, std::unique_ptr<ProgressTerminal> term,
                   std::function<double()> now)
    : cmd_(std::move(cmd)),
      quiet_(quiet),
      term_(std::move(term)),
      now_(now ? std::move(now) : SteadySeconds),
      tty_(term_->IsTty()),
      start_(now_()) {}

Progress::~Progress() { Clear(); }

void Progress::Say(const std::string& what) {
  if (quiet_) return;
  std::lock_guard<std::mutex> l(mu_);
  double now = now_();
  if (paused_) return;
  if (last_ >= 0 && now - last_ < (tty_ ? kTtySeconds : kPlainSeconds)) return;
  last_ = now;
  std::string line = fmt::format("{}: {} ({:.1f}s)", cmd_, what, now - start_);
  if (tty_) {
    // The last column stays free: some terminals wrap on writing it.
    int width = term_->Width();
    term_->Write("\r\x1b[K" + CutToColumns(line, width > 1 ? width - 1 : 0));
    shown_ = true;
    return;
  }
  term_->Write(line + "\n");
}

double Progress::AnalysisInterval() { return isatty(STDERR_FILENO) != 0 ? 0.25 : kPlainSeconds; }

void Progress::ClearLocked() {
  if (!shown_) return;
  term_->Write("\r\x1b[K");
  shown_ = false;
}

void Progress::Clear() {
  std::lock_guard<std::mutex> l(mu_);
  ClearLocked();
  // On a terminal the next line shows at once: the one erased is out of date.
  if (tty_) last_ = -1;
}

void Progress::Pause() {
  std::lock_guard<std::mutex> l(mu_);
  ClearLocked();
  paused_ = true;
  if (tty_) last_ = -1;
}

void Progress::Resume() {
  std::lock_guard<std::mutex> l(mu_);
  paused_ = false;
}

}  // namespace gordian::cli
