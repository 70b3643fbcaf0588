// This file declares RerunWithoutRecording: a test that failed under
// recording is run once more with the plain go command (no overlay, no
// recorder), so that gordian can tell a user whether the failure is the
// program's or the slowdown's ("TestX failed under recording and passes
// without it: timing-sensitive"). The verdict is not changed by it: the
// exit status stays 1, as it would be for go test under the same slowdown.
#pragma once

#include <string>
#include <vector>

namespace gordian::driver {

struct PlainTestResult {
  std::string package;  // import path
  std::string test;     // top-level test name
  bool passed = false;
};

// Runs `go test -json -count=1 ARGS` in cwd, where ARGS are the go test
// flags and packages gordian test got (args; a leading -C stays first)
// with -run replaced by one that selects exactly the top-level tests names
// (shard.h's WithOnlyTests). *out gets the tests that ended (pass or fail)
// in the rerun. False with *err when the go command cannot be run or
// reported nothing (a build failure, the wall limit).
bool RerunWithoutRecording(const std::vector<std::string>& args, const std::string& cwd,
                           const std::vector<std::string>& names, double wall_seconds,
                           std::vector<PlainTestResult>* out, std::string* err);

}  // namespace gordian::driver
