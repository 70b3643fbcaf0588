// This file writes findings as the JSON report (contract version 1:
// docs/design.md, "The JSON report"), field by field and in the documented
// order:
//   {"version":1,"tool":"gordian","tool_version":"0.1.0" (the binary's,
//    util/version.h),"findings":[{"kind","status","severity",
//    ["primitive" (goroutine-leak only)],"test","message","locations":[{"file",
//    "line","column","role","goroutine"}],"reproduce"}]}
// then, for a command that ran tests, go test's verdict (verdict.h):
//   "tests":[{"package","name","result"}],"packages":[{"package","ok","how"}],
//   ["go_failure"]
// and, when the analysis left something out to stay within its memory
// budget, "degraded":["what was dropped", ...] (docs/reports.md), and for
// gordian fuzz "fuzz":{"seed":N,"test_failures":[{"package","test","runs","of",
// "first_by","output"}]} (FuzzReport)
// and reads it back (for tools and tests that consume reports).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"

namespace gordian::report {

inline constexpr int kJsonVersion = 1;

// A test that failed in some runs of its campaign with no concurrency
// finding to explain it, once per test.
struct FuzzTestFailure {
  std::string package, test;
  uint64_t runs = 0, of = 0;  // runs it failed in, of the campaign's runs
  std::string first_by;       // the schedule of the first (the strategy's key)
  std::string output;         // go test's lines about it
};

// What gordian fuzz adds to its report: the seed every random choice of its
// campaigns came from, so that a campaign can be run again (-seed), and the
// tests that failed for another reason than a concurrency bug.
struct FuzzReport {
  uint64_t seed = 0;
  std::vector<FuzzTestFailure> test_failures;
};

// The report as JSON text (indented, ending in a newline).
// With a verdict, its tests and packages follow the findings.
// degraded: what the analysis dropped (pipeline/memory_budget.h); the field
// is written only when there is something in it.
// fuzz, when given, is written as "fuzz" after the rest.
std::string ToJson(const std::vector<Finding>& findings, const Verdict* verdict = nullptr,
                   const std::vector<std::string>& degraded = {},
                   const FuzzReport* fuzz = nullptr);

// Parses a report; false with *err on malformed input or an unknown
// version, kind, status, severity, primitive or role.
bool FromJson(const std::string& text, std::vector<Finding>* out, std::string* err);

// Everything a report holds, as FromJsonReport reads it back (for
// gordian merge, which renders merged reports again).
struct JsonReport {
  std::vector<Finding> findings;
  bool has_verdict = false;  // "tests" and "packages" were there
  Verdict verdict;
  std::vector<std::string> degraded;
  bool has_fuzz = false;
  FuzzReport fuzz;
  // What was left out because it cannot be trusted (a `reproduce` that is
  // not a gordian replay command: a report is data, never a command to
  // print for a user to run), one sentence each.
  std::vector<std::string> warnings;
};

// Whether command is one gordian writes as `reproduce`: a gordian binary's
// path, "replay", and one schedule path (quoted when it has to be), with
// nothing a shell would read as another command.
bool IsReplayCommand(std::string_view command);

// Parses a whole report: FromJson's findings and the verdict, degraded and
// fuzz parts; false with *err as FromJson, or on a malformed part.
bool FromJsonReport(const std::string& text, JsonReport* out, std::string* err);

// Writes ToJson(findings) to path; false with *err when it cannot.
bool WriteJsonFile(const std::string& path, const std::vector<Finding>& findings,
                   std::string* err, const Verdict* verdict = nullptr,
                   const std::vector<std::string>& degraded = {},
                   const FuzzReport* fuzz = nullptr);

}  // namespace gordian::report
