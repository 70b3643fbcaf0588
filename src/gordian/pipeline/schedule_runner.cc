// This file implements GoScheduleRunner and RunSchedule (schedule_runner.h).
#include "gordian/pipeline/schedule_runner.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/schedule/invocation_check.h"
#include "gordian/race/race_findings.h"
#include "gordian/util/phase_timing.h"

namespace gordian::pipeline {

namespace fs = std::filesystem;

bool GoScheduleRunner::Run(const schedule::Schedule& s, const std::string& schedule_path,
                           const RunOptions& opt, RunOutput* out, std::string* err) {
  *out = RunOutput();
  if (s.cmd.mode != "test" && s.cmd.mode != "run") {
    *err = "the schedule does not say how to run the program (cmd.mode); give the package "
           "after --, e.g. `gordian replay SCHEDULE -- ./cmd/x`";
    return false;
  }
  if (s.cmd.mode == "run" && s.cmd.args.empty()) {
    // It would build whatever package the current directory holds.
    *err = "the schedule does not say which program to run; give its package after --, e.g. "
           "`gordian replay SCHEDULE -- ./cmd/x`";
    return false;
  }
  if (!s.cmd.cwd.empty() && !schedule::CheckInvocationDir(s.cmd.cwd, err)) return false;
  driver::RecordOptions ro;
  ro.mode = s.cmd.mode == "test" ? driver::RecordMode::kTest : driver::RecordMode::kRun;
  ro.args = s.cmd.args;
  // -race: the replay is built with the race detector like the recording,
  // so a data race that occurred can be seen again (the flag comes from
  // cmd.race, a yes/no, never from flag text in the schedule).
  if (s.cmd.race && std::find(ro.args.begin(), ro.args.end(), "-race") == ro.args.end()) {
    ro.args.insert(ro.args.begin(), "-race");
  }
  ro.cwd = s.cmd.cwd;
  ro.out_dir = opt.out_dir;
  ro.wall_seconds = opt.wall_seconds;
  ro.pass_through = opt.pass_through;
  ro.self_exe = opt.self_exe;
  ro.vet = false;  // the recording the schedule comes from went through vet
  ro.env = ReplayEnvironment(schedule_path, opt);
  ro.gomaxprocs = s.cmd.gomaxprocs;  // the program's, not the build's
  util::PhaseTimer timer("replay");
  if (!driver::Record(ro, &out->record, err)) return false;
  timer.Lap("go test / go build and run");
  if (out->record.build_failed) {
    *err = "the program no longer builds; a schedule replays only the program it was made from";
    return false;
  }
  return ReadScheduledTrace(out, err);
}

std::map<std::string, std::string> ReplayEnvironment(const std::string& schedule_path,
                                                     const RunOptions& opt) {
  std::map<std::string, std::string> env = {
      {"GORDIAN_SCHEDULE", fs::absolute(schedule_path).string()},
      {"GORDIAN_REPLAY_STALL_MS", std::to_string(opt.stall_ms)},
      {"GORDIAN_DEADLOCK_MS", std::to_string(opt.deadlock_ms)}};
  if (opt.trace_max_mb > 0) env["GORDIAN_TRACE_MAX_MB"] = std::to_string(opt.trace_max_mb);
  return env;
}

bool ReadScheduledTrace(RunOutput* out, std::string* err) {
  if (out->record.traces.empty()) {
    *err = fmt::format("the replay recorded nothing ({})", out->record.run.Describe());
    return false;
  }
  out->trace_dir = out->record.traces[0].trace_dir;
  if (!trace::ReadTrace(out->trace_dir, &out->trace, err)) return false;
  // A replay that did not start is an error, not a divergence at position
  // 0: the runtime refused the schedule (its reason is in meta.txt), or
  // the program never reached the replay's set-up.
  auto refused = out->trace.meta.find("replay_refused");
  if (refused != out->trace.meta.end()) {
    *err = fmt::format("the replay did not start: the runtime refused the schedule: {}",
                       refused->second);
    return false;
  }
  if (!out->trace.meta.count("replay_schedule")) {
    *err = fmt::format("the replay did not start: the runtime did not take the schedule ({})",
                       out->record.run.Describe());
    return false;
  }
  return true;
}

bool RunSchedule(ScheduleRunner& runner, const schedule::Schedule& s,
                 const std::string& schedule_path, const RunOptions& opt, ScheduledRun* out,
                 std::string* err) {
  *out = ScheduledRun();
  util::PhaseTimer timer("replay");  // GORDIAN_TIMING=1: the run, then each check
  if (!runner.Run(s, schedule_path, opt, out, err)) return false;
  timer.Lap("run and read the trace");
  out->follow = schedule::CheckFollowed(s, out->trace);
  timer.Lap("check followed");
  out->occurred = detect::DetectOccurred(out->trace);
  race::AddRaceFindings(out->trace_dir, out->trace, &out->occurred);  // under -race
  timer.Lap("occurred bugs");
  return true;
}

}  // namespace gordian::pipeline
