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
// one; -list, -json, -v). go test -list ignores -skip: the tests and
// examples -skip skips (SkipFilterOf) are left out, by one more listing per
// alternative of its pattern, or one for a pattern without '/' (whose
// alternatives all have one level: the whole pattern matches a name when
// one of them does). The names of Test functions go to tests, those
// of examples and fuzz targets to others; benchmarks (-bench selects
// them, not -run) are left out. False with *err when the go
// command cannot be run or lists nothing at all (a build failure, a bad
// flag: its first lines of output say why).
bool ListTests(const std::vector<std::string>& args, const std::string& cwd,
               double wall_seconds, std::vector<PackageTests>* out, std::string* err);

// A -run or -skip pattern split as go test splits it (testing's
// splitRegexp): into alternatives at each '|' outside brackets and
// parentheses, and each alternative into per-level patterns at each '/'
// there ("TestA/sub|TestB" -> {{"TestA", "sub"}, {"TestB"}}).
std::vector<std::vector<std::string>> SplitTestPattern(const std::string& pattern);

// The part of a -run pattern that selects top-level tests: the first level
// of each alternative ("TestA/sub" -> "TestA"; "TestA/x|TestB" ->
// "(?:TestA)|(?:TestB)").
std::string TopLevelPattern(const std::string& run);

// Which top-level tests a -skip pattern skips, as go test decides (testing's
// matcher): a name is skipped when the first alternative whose first level
// matches it has only that level; an alternative with more levels skips
// subtests only, and shields the name from the alternatives after it.
// The listing (go test -list, which ignores -skip) asks go which names
// match `first_levels[i]`; a name is skipped when the first i that matches
// it has `whole[i]` true.
struct SkipFilter {
  std::vector<std::string> first_levels;
  std::vector<bool> whole;  // the alternative has one level
};
SkipFilter SkipFilterOf(const std::string& skip);

}  // namespace gordian::driver
