// This file owns how a large test trace is cut into windows that are
// analysed one after the other (analyze_trace.cc): the goroutines of a
// group of top-level tests, read and analysed without the others, so that
// the analysis holds one window's records, index and clocks at a time
// instead of the whole suite's.
//
// A window is exact only when no happens-before edge and no prediction
// crosses it. Tests run one after the other on goroutines the test runner
// spawns, and the runner's own synchronisation is not recorded, so two
// tests are related in the trace only through what their goroutines share:
// a sync object (channel, mutex, WaitGroup, Once, Cond) or a testing.T. The
// tests are the union-find classes of those relations; the main goroutine
// (the runner) is in every window, with only the go statements and blocked
// goroutines that belong to it. Any trace this does not describe (main
// doing more than spawning tests, a goroutine that started two tests, an
// incomplete run, a deadlocked or crashed program) is not cut.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::pipeline {

struct TraceWindows {
  // Per window, per gid (index gid, 0 unused): 1 = the goroutine's records
  // belong to the window. The main goroutine (gid 1) is 0 in every window:
  // its records go through WindowSelection.
  std::vector<std::vector<uint8_t>> windows;
  std::vector<uint64_t> records;  // per window: its records, the main goroutine's left out
  size_t groups = 0;              // related groups of tests before they were packed into windows
  std::string why_not;            // when windows is empty: why the trace is not cut
};

// The windows of t: its related groups of top-level tests packed, in trace
// order, into windows of at most max(kMinWindowRecords, all records /
// max_windows) records each, or one group. Empty (with why_not) when the
// trace cannot be cut or holds a single group. (Each window reads the
// trace file again: fewer than max_windows plus the groups larger than the
// target.)
inline constexpr uint64_t kMinWindowRecords = 1'000'000;
TraceWindows CutIntoWindows(const trace::Trace& t, size_t max_windows = 8,
                           uint64_t min_window_records = kMinWindowRecords);

// What trace::ReadTrace reads of a window (one of TraceWindows::windows):
// its goroutines' records, and of the main goroutine's the go statements
// and blocked goroutines of the window (by the gid the record names) and
// the program's exit (in every window).
trace::ReadSelection WindowSelection(std::vector<uint8_t> window);

}  // namespace gordian::pipeline
