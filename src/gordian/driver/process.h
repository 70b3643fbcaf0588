// This file declares RunProcess: run one external program (the go command,
// a built binary) without a shell, in its own process group, with a
// wall-clock limit, capturing its stdout and stderr while optionally passing
// them through to ours as they arrive.
//
// A hanging program never hangs gordian: at the limit the whole process
// group gets SIGTERM, then SIGKILL after a grace period. When the child
// itself has exited, whatever it left running in its group (a leaked
// background process holding the pipes open) is killed after a short drain.
// SIGINT, SIGTERM and SIGHUP sent to gordian while it waits are forwarded to
// the group of every child running then (several threads may each run one),
// so Ctrl-C stops every program under test at once.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::driver {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH
  std::string cwd;                // empty: ours
  // The child's environment is ours, minus unset_env, plus set_env.
  std::map<std::string, std::string> set_env;
  std::vector<std::string> unset_env;
  double timeout_seconds = 0;     // 0: no limit
  double kill_grace_seconds = 3;  // between SIGTERM and SIGKILL
  bool pass_through = true;       // copy the child's output to our stdout/stderr
  bool stdout_to_stderr = false;  // pass its stdout through to our stderr (ours holds a report)
  bool capture = true;            // keep the output in ProcessResult
  size_t capture_limit = 64u << 20;  // per stream; the rest is dropped (and counted)
  // Stdin: ours when true and ours is not a terminal (a background process
  // group reading a terminal would be stopped), else /dev/null.
  bool inherit_stdin = false;
  // When set, called on the waiting thread with each chunk of the child's
  // output (stream 1: stdout, 2: stderr) just before it is passed through,
  // and with stream 0 and no data about every 50 ms while the child runs
  // (the progress line of gordian test: cli/progress.h). Must be quick.
  std::function<void(int stream, std::string_view data)> observe;
};

struct ProcessResult {
  int exit_code = -1;     // when the child exited normally
  int signal = 0;         // when a signal killed it
  bool timed_out = false; // we killed it at the wall-clock limit
  bool interrupted = false;  // we forwarded SIGINT/SIGTERM/SIGHUP to it
  std::string out, err;   // captured output (up to capture_limit each)
  size_t dropped = 0;     // captured bytes beyond the limit
  double seconds = 0;     // wall-clock run time

  bool Succeeded() const { return signal == 0 && exit_code == 0; }
  // "exit status 3", "killed by signal 9 (SIGKILL)", "killed at the 5s limit".
  std::string Describe() const;
};

// Runs spec to completion. Returns false with *err only when the program
// could not be started (not found, not executable, bad cwd); a program that
// fails or is killed is a successful run with that status in *result.
bool RunProcess(const ProcessSpec& spec, ProcessResult* result, std::string* err);

// Interrupts: after InstallInterruptHandler (at gordian's start), the first
// SIGINT, SIGTERM or SIGHUP while children run is forwarded to each child's
// process group, Interrupted() turns true, and RunProcess starts nothing
// more (false, "interrupted"). Commands check Interrupted() between steps
// and wind down: their scratch directories are removed on the way out, and
// nothing is reported from a run that did not end by itself. A signal that
// comes while no child runs (gordian analysing) ends gordian at once, as
// the signal's default action does.
void InstallInterruptHandler();
bool Interrupted();

// True while RunProcess waits for a child (async-signal-safe; the deadline
// of deadline.h leaves a running child to RunProcess).
bool ChildRunning();

// The absolute path of an executable named name in $PATH, or "" (a name
// containing '/' is returned as is when it is executable).
std::string LookPath(const std::string& name);

}  // namespace gordian::driver
