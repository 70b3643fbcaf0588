// This file writes findings as the JSON report (contract version 1 of
// DESIGN.md), field by field and in the documented order:
//   {"version":1,"tool":"gordian","findings":[{"kind","status","severity",
//    ["primitive" (goroutine-leak only)],"test","message","locations":[{"file",
//    "line","column","role","goroutine"}],"reproduce"}]}
// and reads it back (for tools and tests that consume reports).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"

namespace gordian::report {

inline constexpr int kJsonVersion = 1;

// The report as JSON text (indented, ending in a newline).
std::string ToJson(const std::vector<Finding>& findings);

// Parses a report; false with *err on malformed input or an unknown
// version, kind, status, severity, primitive or role.
bool FromJson(const std::string& text, std::vector<Finding>* out, std::string* err);

// Writes ToJson(findings) to path; false with *err when it cannot.
bool WriteJsonFile(const std::string& path, const std::vector<Finding>& findings,
                   std::string* err);

}  // namespace gordian::report
