// This file writes findings as the JSON report (contract version 1 of
// DESIGN.md), field by field and in the documented order:
//   {"version":1,"tool":"gordian","findings":[{"kind","status","severity",
//    ["primitive" (goroutine-leak only)],"test","message","locations":[{"file",
//    "line","column","role","goroutine"}],"reproduce"}]}
// then, for a command that ran tests, go test's verdict (verdict.h):
//   "tests":[{"package","name","result"}],"packages":[{"package","ok","how"}],
//   ["go_failure"]
// and, when the analysis left something out to stay within its memory
// budget, "degraded":["what was dropped", ...] (docs/reports.md)
// and reads it back (for tools and tests that consume reports).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"

namespace gordian::report {

inline constexpr int kJsonVersion = 1;

// The report as JSON text (indented, ending in a newline).
// With a verdict, its tests and packages follow the findings.
// degraded: what the analysis dropped (pipeline/memory_budget.h); the field
// is written only when there is something in it.
std::string ToJson(const std::vector<Finding>& findings, const Verdict* verdict = nullptr,
                   const std::vector<std::string>& degraded = {});

// Parses a report; false with *err on malformed input or an unknown
// version, kind, status, severity, primitive or role.
bool FromJson(const std::string& text, std::vector<Finding>* out, std::string* err);

// Writes ToJson(findings) to path; false with *err when it cannot.
bool WriteJsonFile(const std::string& path, const std::vector<Finding>& findings,
                   std::string* err, const Verdict* verdict = nullptr,
                   const std::vector<std::string>& degraded = {});

}  // namespace gordian::report
