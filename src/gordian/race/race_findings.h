// This file turns the race detector's reports of one recorded process into
// data-race findings (docs/reports.md): both accesses at the innermost frame
// of user code, with their roles (write, read), the goroutines by their
// stable Gordian ids (matched to the trace by spawn site and test),
// their spawn sites ("created at"), and the test the race happened in.
#pragma once

#include <string>
#include <vector>

#include "gordian/race/race_log.h"
#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::race {

// One finding per report that has a user-code location; t (may be empty)
// maps goroutines and tests. Reports of the same pair of access sites give
// findings with the same locations (report::Dedup merges them).
std::vector<report::Finding> RaceFindings(const std::vector<RaceReport>& reports,
                                          const trace::Trace& t);

// Reads the race log of the process recorded in trace_dir (gorace.h; the
// pid comes from the trace's meta.txt) and appends its findings to *out.
// Returns the number of race reports that could not be used (unparseable,
// or with no frame in user code), for a note.
size_t AddRaceFindings(const std::string& trace_dir, const trace::Trace& t,
                       std::vector<report::Finding>* out);

}  // namespace gordian::race
