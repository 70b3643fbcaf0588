// This file condenses a trace into the facts a one-line summary needs: how
// many goroutines and records, how the program ended (exit status, panic,
// global deadlock, killed), the tests it ran and the goroutines they leaked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/trace/trace.h"

namespace gordian::trace {

struct TraceSummary {
  size_t goroutines = 0;      // of the program (the recorder's pseudo-goroutine excluded)
  size_t records = 0;
  size_t never_completed = 0; // blocking operations with tpost == 0
  size_t tests = 0;           // TestStart records
  size_t tests_failed = 0;    // TestEnd with kFailed
  size_t leaked = 0;          // BlockedAtTestEnd records of test ends (not of program exit)
  bool global_deadlock = false;
  uint32_t deadlocked = 0;    // goroutines blocked at the global deadlock
  bool exited = false;        // a ProgramExit record (or meta exit_status) was seen
  uint32_t exit_status = 0;
  // ProgramExit aux: 0 main returned, 1 os.Exit, 2 fatal panic, 3 fatal
  // error, 4 gordian global deadlock.
  uint16_t exit_how = 0;
  std::string panic;          // message of the last Panic record, if any
  bool truncated = false;
};

TraceSummary Summarize(const Trace& t);

// One test (or subtest, "TestX/case") of a test binary, as its TestStart and
// TestEnd records tell it. A test without TestEnd did not finish: the binary
// exited, crashed or was killed while it ran.
struct TestOutcome {
  std::string name;
  bool finished = false;
  bool failed = false;  // TestEnd said t.Failed()
};

// The tests of the trace in the order they started.
std::vector<TestOutcome> TestOutcomes(const Trace& t);

// "exited with status 0", "panicked (status 2): send on closed channel",
// "ended in a global deadlock: 3 goroutines blocked forever (status 3)", "exited with status 4
// (os.Exit)",
// "did not finish (killed, or the trace was cut)".
std::string DescribeEnd(const TraceSummary& s);

}  // namespace gordian::trace
