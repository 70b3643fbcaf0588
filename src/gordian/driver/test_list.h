// This file declares ListTests: the tests of each package as
// `go test -json -list` names them, without running any. gordian fuzz
// fuzzes these; a run that records every test once (its listing run) stops
// at the first test that crashes the binary, and the tests after it would
// not be fuzzed.
#pragma once

#include <string>
#include <vector>

namespace gordian::driver {

struct PackageTests {
  std::string package;             // import path
  std::vector<std::string> tests;  // TestXxx names, in go test's order
  // ExampleXxx and FuzzXxx names: go test's -run selects them too (an
  // example with output runs, a fuzz target runs its seed corpus), so
  // -shard splits them with the tests (shard.h); gordian fuzz does not
  // fuzz them.
  std::vector<std::string> others;
  bool listed = false;             // the binary built and listed its tests
};

// Runs `go test -json -vet=off -list PATTERN ARGS` in cwd, where ARGS are
// go test flags and packages as for gordian test (args; a leading -C DIR
// becomes the working directory), less the flags that only select or
// report what runs (-run: its top-level part becomes PATTERN, "." without
// one; -list, -json, -v). The names of Test functions go to tests, those
// of examples and fuzz targets to others; benchmarks (-bench selects
// them, not -run) are left out. False with *err when the go
// command cannot be run or lists nothing at all (a build failure, a bad
// flag: its first lines of output say why).
bool ListTests(const std::vector<std::string>& args, const std::string& cwd,
               double wall_seconds, std::vector<PackageTests>* out, std::string* err);

// The part of a -run pattern that selects top-level tests: up to the first
// '/' outside brackets and parentheses ("TestA/sub" -> "TestA").
std::string TopLevelPattern(const std::string& run);

}  // namespace gordian::driver
