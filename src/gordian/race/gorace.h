// This file owns where the race detector's reports go: Gordian sets GORACE's
// log_path for every recorded process, so that each test binary (and a
// `gordian run` program) writes its reports to a file in its own trace
// directory instead of into the test output:
//
//   DIR/race.<pid>   the reports of the process with that pid (Go appends
//                    ".<pid>" to log_path itself)
//
// Why a file: the reports are then complete and never interleaved with the
// program's own output, and each one belongs to exactly one trace, whose
// goroutines it names (Go goroutine ids are per process). The user's own
// GORACE options are kept; log_path is appended last, so it wins over a
// log_path of theirs. Without -race, Go ignores GORACE.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gordian::race {

// The GORACE value for a process recording into trace_dir: the user's value
// (may be empty) plus log_path=<trace_dir>/race.
std::string GoraceWithLogPath(std::string_view user, const std::string& trace_dir);

// The text of the race log written by process pid into trace_dir ("" when
// there is none: no -race, or no race).
std::string ReadRaceLog(const std::string& trace_dir, const std::string& pid);

}  // namespace gordian::race
