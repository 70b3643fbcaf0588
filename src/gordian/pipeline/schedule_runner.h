// This file declares the seam between the pipeline and the program under
// test: a ScheduleRunner runs the recorded test or main package again under
// a schedule and gives back the trace of that run. GoScheduleRunner is the
// real one (driver::Record with the runtime's replay switched on through
// GORDIAN_SCHEDULE); tests give a fake that returns a prepared trace.
// RunSchedule sits on top of any runner: it runs the schedule and checks
// the run against it (was it followed, which bugs occurred in it).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gordian/driver/record.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::pipeline {

struct RunOptions {
  std::string out_dir;          // where the run's trace goes (required)
  double wall_seconds = 120;    // kill the run after this
  int stall_ms = 1000;          // GORDIAN_REPLAY_STALL_MS
  int deadlock_ms = 500;        // GORDIAN_DEADLOCK_MS of the run
  bool pass_through = true;     // the program's output to ours
  std::string self_exe;         // the gordian binary (go test -exec); "" = this process
  // GORDIAN_TRACE_MAX_MB of the run (0: the recorder's default): a run
  // past it is cut short and its trace marked truncated, so that a test
  // that never ends cannot fill the disk or take minutes to analyse.
  uint32_t trace_max_mb = 0;
};

// The trace of one run under a schedule, and how the run ended.
struct RunOutput {
  std::string trace_dir;        // the run's trace ("" if none was written)
  trace::Trace trace;
  driver::RecordResult record;  // the go command's build and run (a fake may leave it empty)
};

// The environment that switches the runtime's replay on for a run under
// the schedule file at schedule_path (GORDIAN_SCHEDULE and the stall and
// deadlock times of opt): every runner's.
std::map<std::string, std::string> ReplayEnvironment(const std::string& schedule_path,
                                                     const RunOptions& opt);

// Reads the trace of a run under a schedule whose recording is in
// out->record, and checks that the replay started: false with *err when
// nothing was recorded, the trace does not read, or the runtime refused or
// never took the schedule (an error, not a divergence at position 0). Every
// runner ends with it.
bool ReadScheduledTrace(RunOutput* out, std::string* err);

class ScheduleRunner {
 public:
  virtual ~ScheduleRunner() = default;
  // Runs the program of s (its invocation: cmd.mode, cmd.args, cmd.cwd)
  // under the schedule file at schedule_path, which is what the runtime
  // reads, and reads the trace of the run. False with *err when there is
  // no trace to look at (the program does not build, nothing ran).
  virtual bool Run(const schedule::Schedule& s, const std::string& schedule_path,
                   const RunOptions& opt, RunOutput* out, std::string* err) = 0;
};

// The real runner: the go command through driver::Record, with the
// runtime's replay on (GORDIAN_SCHEDULE). s must have an invocation
// (cmd.mode and, for tests, cmd.cwd).
class GoScheduleRunner final : public ScheduleRunner {
 public:
  bool Run(const schedule::Schedule& s, const std::string& schedule_path, const RunOptions& opt,
           RunOutput* out, std::string* err) override;
};

// A run under a schedule, checked against it.
struct ScheduledRun : RunOutput {
  schedule::FollowResult follow;
  std::vector<report::Finding> occurred;  // occurred detectors on the run's trace
};

// Runs s with runner and checks the trace: whether the schedule was
// followed (schedule::CheckFollowed), the bugs that occurred, and under
// -race Go's race reports beside the trace.
bool RunSchedule(ScheduleRunner& runner, const schedule::Schedule& s,
                 const std::string& schedule_path, const RunOptions& opt, ScheduledRun* out,
                 std::string* err);

}  // namespace gordian::pipeline
