// The text both confirmations (of predicted findings, confirm.cc, and of
// verify counterexamples, verify_confirm.cc) put in their reports: the
// reproduce command of a schedule and a finding's short place for notes.
#pragma once

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "gordian/report/finding.h"

namespace gordian::pipeline {

// "file.go:12" of the finding's primary location, or "?".
inline std::string ShortSite(const report::Finding& f) {
  if (f.locations.empty()) return "?";
  return fmt::format("{}:{}", std::filesystem::path(f.locations[0].file).filename().string(),
                     f.locations[0].line);
}

// "GORDIAN replay SCHEDULE", the path quoted for a POSIX shell when it
// needs it.
inline std::string ReproduceCommand(const std::string& gordian, const std::string& schedule) {
  std::string path = schedule;
  if (path.find_first_of(" \t'\"\\$") != std::string::npos) {
    path = "'";
    for (char ch : schedule) path += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    path += "'";
  }
  return fmt::format("{} replay {}", gordian, path);
}

}  // namespace gordian::pipeline
