// The two halves of `gordian replay` around the run itself, for
// bench/run-replay-bench, which runs the recorded binary directly (so that
// the timed run is the program alone, not go build + the program):
//
//   replay_check schedule TRACE-DIR SCHEDULE-FILE
//       writes the schedule of the whole recorded run (schedule::FromTrace,
//       as `gordian replay TRACE-DIR` does) and prints "ops=N goroutines=G".
//   replay_check follow SCHEDULE-FILE REPLAYED-TRACE-DIR
//       compares the replayed trace with the schedule (CheckFollowed, as
//       `gordian replay` does) and prints "exact|complete|diverged: <the
//       words gordian replay prints>". Exit 0 when followed to the end with
//       the same partners and select choices, 1 otherwise, 2 on error.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "gordian/schedule/from_trace.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace {

using namespace gordian;

int Usage() {
  std::fputs("usage: replay_check schedule TRACE-DIR SCHEDULE-FILE\n"
             "       replay_check follow SCHEDULE-FILE REPLAYED-TRACE-DIR\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return Usage();
  const std::string mode = argv[1];
  std::string err;
  if (mode == "schedule") {
    trace::Trace t;
    if (!trace::ReadTrace(argv[2], &t, &err)) {
      fmt::print(stderr, "replay_check: {}\n", err);
      return 2;
    }
    schedule::Schedule s = schedule::FromTrace(t, argv[2]);
    if (!schedule::WriteSchedule(argv[3], s, &err)) {
      fmt::print(stderr, "replay_check: {}\n", err);
      return 2;
    }
    fmt::print("ops={} goroutines={}\n", s.ops.size(), s.goroutines.size());
    return 0;
  }
  if (mode == "follow") {
    schedule::Schedule s;
    if (!schedule::ReadSchedule(argv[2], &s, &err)) {
      fmt::print(stderr, "replay_check: {}\n", err);
      return 2;
    }
    trace::Trace t;
    if (!trace::ReadTrace(argv[3], &t, &err)) {
      fmt::print(stderr, "replay_check: {}\n", err);
      return 2;
    }
    schedule::FollowResult f = schedule::CheckFollowed(s, t);
    const char* verdict = f.exact ? "exact" : f.complete ? "complete" : "diverged";
    fmt::print("{}: {}\n", verdict, schedule::DescribeFollow(f));
    return f.exact ? 0 : 1;
  }
  return Usage();
}
