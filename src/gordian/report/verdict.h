// This file defines the verdict gordian keeps from go test: which tests
// passed, failed or never finished, which test binaries failed (a non-zero
// exit, a crash, a kill), and whether the go command itself failed. It is
// what makes `gordian test` exit 1 on a failing test as go test does, what
// the summary line counts, and the "tests" and "packages" of the JSON
// report. The facts come from the traces (TestStart/TestEnd, ProgramExit:
// trace/summary.h) and from the go command's exit status.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::report {

enum class TestResult : unsigned char { Pass, Fail, Unfinished };

struct TestVerdict {
  std::string package;  // import path, or the directory when unknown
  std::string name;     // "TestX" or "TestX/sub"
  TestResult result = TestResult::Pass;
  // A top-level test that failed (or did not finish) under recording and
  // passed when run once more without it (driver/plain_rerun.h): its
  // failure is the slowdown's. The result stays a failure.
  bool passes_without_recording = false;
};

struct PackageVerdict {
  std::string package;
  bool ok = true;
  std::string how;  // how the test binary ended: "exited with status 0", ...
};

struct Verdict {
  std::vector<PackageVerdict> packages;
  std::vector<TestVerdict> tests;
  // The go command's own failure that no package explains (vet, a flag go
  // test refused, a binary that left no trace): its description, or "".
  std::string go_failure;
  bool build_failed = false;  // some package did not build

  // Top-level tests (no '/' in the name) that failed or did not finish:
  // go test counts a failing subtest as a failure of its parent too.
  size_t FailedTests() const;
  size_t TopLevelTests() const;
  // True when go test would have failed: a failed test or package, or the
  // go command failed.
  bool Failed() const;
  bool Empty() const { return packages.empty() && tests.empty() && go_failure.empty(); }
};

std::string_view TestResultName(TestResult r);  // "pass", "fail", "unfinished"
// The result named name; false if there is none.
bool ParseTestResult(std::string_view name, TestResult* out);

// "2 of 40 tests failed (TestA, TestB)" / "40 tests passed" / "" when no
// test ran; a failed package without a failed test is named with how it
// ended; at most a few names are listed.
std::string VerdictLine(const Verdict& v);

}  // namespace gordian::report
