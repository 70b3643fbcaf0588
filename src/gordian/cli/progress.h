// This file declares the progress line of long commands: `gordian test`
// says what it is doing while go test runs (packages built and tested) and
// after (traces analysed, tests, findings, confirmations, the step under
// way), `gordian fuzz` how each test's campaign goes, with the time so far.
// On a terminal (stderr is a tty) it is one line updated in place (carriage
// return, erase to the end of the line), cut to the terminal's width so
// that it never wraps, and erased before the report or any other output is
// printed. When stderr is not a terminal (CI logs) a plain line is printed
// at most every few seconds. Nothing goes to stdout: --json - stays clean.
// Several threads may call it (gordian test -p, gordian fuzz -j).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace gordian::cli {

// Where the line goes: stderr, or a fake in tests.
class ProgressTerminal {
 public:
  virtual ~ProgressTerminal() = default;
  virtual bool IsTty() = 0;
  virtual int Width() = 0;  // columns; 0 when unknown
  virtual void Write(std::string_view s) = 0;
};

// stderr: isatty, TIOCGWINSZ (else $COLUMNS), fwrite and fflush.
std::unique_ptr<ProgressTerminal> StderrTerminal();

class Progress {
 public:
  // cmd prefixes every line ("gordian test"). Quiet: prints nothing. now
  // returns seconds on a monotonic clock (default: steady_clock).
  Progress(std::string cmd, bool quiet);
  Progress(std::string cmd, bool quiet, std::unique_ptr<ProgressTerminal> term,
           std::function<double()> now);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Shows "cmd: what (12.3s)": on a terminal at most every kTtySeconds
  // (a newer line replaces the one not shown yet at the next call), else
  // at most every kPlainSeconds. The first line always shows.
  void Say(const std::string& what);
  // Erases the updating line (before the report or other output).
  void Clear();
  // Erases the line and holds it back until Resume: output of another
  // kind (the program's, passed through) is being written.
  void Pause();
  void Resume();
  bool tty() const { return tty_; }
  // How often the analysis may update the line (pipeline/analysis_progress.h):
  // often on a terminal, every few seconds in a log.
  static double AnalysisInterval();

  static constexpr double kTtySeconds = 0.1;
  static constexpr double kPlainSeconds = 5.0;

 private:
  void ClearLocked();
  std::string cmd_;
  bool quiet_;
  std::unique_ptr<ProgressTerminal> term_;
  std::function<double()> now_;
  bool tty_;
  double start_;
  std::mutex mu_;
  bool shown_ = false;    // a line is on the terminal
  bool paused_ = false;
  double last_ = -1;      // when the last line was written; -1: none yet
};

}  // namespace gordian::cli
