// This file owns how a report file is written: whole or not at all. A
// report that a command rewrites as it goes (gordian fuzz after each bug)
// must never be found half written by a kill in the middle, so a regular
// file is written beside its target and renamed over it; a target that is
// not a regular file (/dev/stdout, a FIFO) is written directly.
#pragma once

#include <string>

namespace gordian::report {

// Writes text to path; false with *err ("cannot write PATH: why").
bool WriteReportText(const std::string& path, const std::string& text, std::string* err);

}  // namespace gordian::report
