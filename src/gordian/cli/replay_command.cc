// This file implements `gordian replay TRACE-or-SCHEDULE [flags] [-- package args]`:
// re-run the recorded test or program under a schedule (a recorded trace's
// own schedule, or a schedule file from a rewrite, a fuzzer or the model
// checker), record the replay, and say whether the schedule was followed
// to the end, where it diverged if not, and which bugs the replayed run hit.
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/deadline.h"
#include "gordian/driver/process.h"
#include "gordian/driver/go_env.h"
#include "gordian/driver/trace_dirs.h"
#include "gordian/driver/work_dir.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/report/finding.h"
#include "gordian/report/paths.h"
#include "gordian/report/replay_hits.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/invocation_check.h"
#include "gordian/schedule/schedule.h"
#include "gordian/util/duration.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

namespace fs = std::filesystem;

namespace {

// Whether a replay may run in dir, the directory a trace or schedule
// names: inside the module of the current directory (the current directory
// itself outside a module), the standard library, or the module cache (a
// dependency's tests). Symbolic links are resolved first.
bool ReplayDirAllowed(const std::string& dir, std::string* why) {
  std::error_code ec;
  fs::path here = fs::current_path(ec);
  std::string module = report::FindModuleRoot(here.string());
  std::vector<std::string> roots = {module.empty() ? here.string() : module};
  driver::GoTool go;
  std::string err;
  if (driver::FindGo(here.string(), &go, &err)) {
    if (!go.goroot.empty()) roots.push_back(go.goroot + "/src");
    if (!go.gomodcache.empty()) roots.push_back(go.gomodcache);
  }
  fs::path real = fs::weakly_canonical(dir, ec);
  for (const std::string& r : roots) {
    fs::path root = fs::weakly_canonical(r, ec);
    if (!root.empty() && (real == root || !report::Under(root.string(), real.string()).empty())) {
      return true;
    }
  }
  *why = fmt::format("the schedule runs the test in {}, outside {} (the module of the current "
                     "directory); a replay runs only code of the module it is started in: run "
                     "gordian replay from inside that module",
                     dir, roots[0]);
  return false;
}

}  // namespace

int RunReplay(const std::vector<std::string>& args_in) {
  const std::string cmd = "gordian replay";
  std::vector<std::string> args = args_in, tail;
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i] == "--") {
      tail.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      args.resize(i);
      break;
    }
  }
  util::FlagSet flags(cmd);
  flags.Interspersed();  // flags may follow the paths
  std::string out_dir, save;
  long stall_ms = 1000, gomaxprocs = 0;
  std::string wall = "120s";
  bool quiet = false, test_mode = false;
  flags.String("o", &out_dir, "DIR", "keep the replayed trace in DIR (default: a scratch dir)");
  flags.String("save-schedule", &save, "FILE", "write the schedule that is replayed to FILE");
  flags.Int("stall-ms", &stall_ms, "MS", "stall time before the head operation is skipped "
            "(default 1000)");
  flags.String("wall", &wall, "DURATION",
               "stop the replay (build, run and check) after this (default 120s; plain numbers "
               "are seconds)");
  flags.Int("gomaxprocs", &gomaxprocs, "N", "GOMAXPROCS of the replay (default: as recorded)");
  flags.Bool("test", &test_mode, "the arguments after -- are go test arguments (default: a "
             "main package and its arguments)");
  flags.Bool("quiet-program", &quiet, "do not pass the program's output through");
  std::vector<std::string> pos;
  std::string usage = fmt::format(
      "usage: {} TRACE-DIR|SCHEDULE [flags] [-- package and arguments]\n\n"
      "Re-runs the recorded test or program under the schedule, records the replay\n"
      "and reports whether it followed the schedule to the end and which bugs it hit.\n"
      "Exit status: 0 no bug in the replayed run, 1 a bug, 2 the replay failed.\n\n",
      cmd);
  if (auto done = ParseCommandLine(&flags, args, &pos, usage)) return *done;
  std::string err;
  if (pos.size() != 1) return UsageError(cmd + ": expected one TRACE-DIR or SCHEDULE");
  double wall_seconds = 0;
  if (!util::ParseDuration(wall, &wall_seconds, &err)) {
    return UsageError(fmt::format("{}: -wall {:?}: {}", cmd, wall, err));
  }

  // -wall bounds the whole replay: the build, the run and the check.
  driver::ArmDeadline(wall_seconds,
                      fmt::format("{}: the replay did not finish within the -wall limit ({}); "
                                  "raise -wall",
                                  cmd, wall));

  schedule::Schedule s;
  std::string sched_path;
  std::string cache;
  driver::ScopedRunDir run_dir;
  if (!driver::CacheDir(&cache, &err) || !run_dir.Make(cache, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  const std::string& scratch = run_dir.path();

  if (fs::is_directory(pos[0])) {
    std::vector<driver::PackageTrace> traces;
    if (!driver::ListTraces(pos[0], &traces, &err) || traces.empty()) {
      fmt::print(stderr, "{}: {}: not a trace directory{}\n", cmd, pos[0],
                 err.empty() ? "" : ": " + err);
      return kExitToolError;
    }
    if (traces.size() > 1) {
      fmt::print(stderr, "{}: {} holds {} traces; name one of them (e.g. {})\n", cmd, pos[0],
                 traces.size(), traces[0].trace_dir);
      return kExitToolError;
    }
    trace::Trace t;
    if (!trace::ReadTrace(traces[0].trace_dir, &t, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
    s = schedule::FromTrace(t, traces[0].trace_dir);
    sched_path = save.empty() ? scratch + "/schedule" : save;
  } else {
    if (!schedule::ReadSchedule(pos[0], &s, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
    sched_path = pos[0];
  }
  // A trace or schedule names the directory its test runs in; a file from
  // elsewhere must not choose which code runs on this machine.
  if (tail.empty() && !s.cmd.cwd.empty() &&
      (!schedule::CheckInvocationDir(s.cmd.cwd, &err) || !ReplayDirAllowed(s.cmd.cwd, &err))) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  if (!tail.empty()) {
    s.cmd.mode = test_mode ? "test" : "run";
    s.cmd.args = tail;
    if (s.cmd.cwd.empty()) s.cmd.cwd = fs::current_path().string();
  }
  if (gomaxprocs < 0 || gomaxprocs > 1024) {
    return UsageError(fmt::format("{}: -gomaxprocs {}: from 1 to 1024 (Go's largest GOMAXPROCS)", cmd,
                                  gomaxprocs));
  }
  if (gomaxprocs > 0) s.cmd.gomaxprocs = static_cast<int>(gomaxprocs);
  if (sched_path != pos[0] || !tail.empty() || gomaxprocs > 0) {
    if (sched_path == pos[0]) sched_path = scratch + "/schedule";
    if (!schedule::WriteSchedule(sched_path, s, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
  }
  pipeline::RunOptions ro;
  ro.out_dir = out_dir.empty() ? scratch + "/replay" : out_dir;
  ro.stall_ms = static_cast<int>(stall_ms);
  ro.wall_seconds = wall_seconds;
  ro.pass_through = !quiet;
  pipeline::GoScheduleRunner runner;
  pipeline::ScheduledRun rr;
  bool replayed = pipeline::RunSchedule(runner, s, sched_path, ro, &rr, &err);
  if (driver::Interrupted()) {
    fmt::print(stderr, "{}: interrupted; nothing is reported from a replay that did not end by "
               "itself\n", cmd);
    return kExitToolError;
  }
  if (!replayed) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  // A replay killed at its -wall limit did not diverge: it was stopped.
  // What it hit until then is still listed, but "no bug" proves nothing.
  const bool stopped = rr.record.run.timed_out;
  if (stopped) {
    fmt::print(stderr, "gordian replay: stopped at the -wall limit ({:g} s) after {} of {} operations; "
               "raise -wall to let it end\n", wall_seconds, rr.follow.followed, rr.follow.ops);
  } else {
    fmt::print(stderr, "gordian replay: {}\n", schedule::DescribeFollow(rr.follow));
  }
  // Bugs and warnings (a recv-on-closed schedule produces a warning), not
  // infos; the exit status counts bugs, and the schedule's expected kind.
  // What the report drops (receives that check for closed) is dropped, the
  // same bug hit by many goroutines is one line, and the list is capped: a
  // diverged replay of a large suite must not print a thousand lines.
  report::ReplayHits hits = report::SummarizeReplayHits(std::move(rr.occurred), s.expect);
  for (const std::string& line : hits.lines) fmt::print(stderr, "gordian replay: {}\n", line);
  if (hits.more > 0) {
    fmt::print(stderr, "gordian replay: ... and {} more (-o DIR keeps the replayed trace; "
               "gordian analyze DIR lists them)\n", hits.more);
  }
  int bugs = static_cast<int>(hits.bugs);
  if (!out_dir.empty()) fmt::print(stderr, "gordian replay: replayed trace in {}\n", rr.trace_dir);
  if (bugs > 0) return kExitFound;
  return stopped ? kExitToolError : kExitOK;
}

}  // namespace gordian::cli
