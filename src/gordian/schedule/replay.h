// This file declares RunReplay: run the program of a schedule again (the
// same test or main package, through driver::Record) with the runtime's
// replay switched on (GORDIAN_SCHEDULE), record the replayed run, and say
// whether the schedule was followed and what happened.
#pragma once

#include <string>
#include <vector>

#include "gordian/driver/record.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::schedule {

struct ReplayOptions {
  std::string out_dir;          // where the replayed trace goes (required)
  double wall_seconds = 120;    // kill the replay after this
  int stall_ms = 1000;          // GORDIAN_REPLAY_STALL_MS
  int deadlock_ms = 500;        // GORDIAN_DEADLOCK_MS of the replayed run
  bool pass_through = true;     // the program's output to ours
  std::string self_exe;         // the gordian binary (go test -exec); "" = this process
};

struct ReplayResult {
  std::string trace_dir;        // the replayed trace ("" if none was written)
  trace::Trace trace;
  FollowResult follow;
  driver::RecordResult record;
  std::vector<report::Finding> occurred;  // occurred detectors on the replayed trace
};

// s must have an invocation (cmd.mode and, for tests, cmd.cwd). The
// schedule file at schedule_path is what the runtime reads.
bool RunReplay(const Schedule& s, const std::string& schedule_path, const ReplayOptions& opt,
               ReplayResult* out, std::string* err);

// "complete (all 120 operations as scheduled)", "diverged at ...".
std::string DescribeFollow(const FollowResult& f);

}  // namespace gordian::schedule
