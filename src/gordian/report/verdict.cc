// This file implements the test verdict (verdict.h).
#include "gordian/report/verdict.h"
#include "gordian/util/enum_names.h"

#include <fmt/format.h>

namespace gordian::report {
namespace {

constexpr size_t kNamesListed = 5;

constexpr util::EnumName<TestResult> kTestResultNames[] = {
    {TestResult::Pass, "pass"},
    {TestResult::Fail, "fail"},
    {TestResult::Unfinished, "unfinished"},
};
static_assert(util::ListsEveryValue(kTestResultNames, TestResult::Unfinished));

bool TopLevel(const TestVerdict& t) { return t.name.find('/') == std::string::npos; }

// "TestA" or "pkg.TestA" when the tests come from several packages.
std::string TestLabel(const TestVerdict& t, bool several_packages) {
  if (!several_packages || t.package.empty()) return t.name;
  return fmt::format("{}.{}", t.package, t.name);
}

}  // namespace

size_t Verdict::FailedTests() const {
  size_t n = 0;
  for (const TestVerdict& t : tests) n += TopLevel(t) && t.result != TestResult::Pass;
  return n;
}

size_t Verdict::TopLevelTests() const {
  size_t n = 0;
  for (const TestVerdict& t : tests) n += TopLevel(t);
  return n;
}

bool Verdict::Failed() const {
  if (!go_failure.empty() || build_failed || FailedTests() > 0) return true;
  for (const PackageVerdict& p : packages) {
    if (!p.ok) return true;
  }
  return false;
}

std::string_view TestResultName(TestResult r) { return util::NameOf(kTestResultNames, r); }

bool ParseTestResult(std::string_view name, TestResult* out) {
  return util::ValueNamed(kTestResultNames, name, out);
}

std::string VerdictLine(const Verdict& v) {
  size_t total = v.TopLevelTests();
  size_t failed = v.FailedTests();
  bool several = v.packages.size() > 1;
  std::vector<std::string> names;
  for (const TestVerdict& t : v.tests) {
    if (!TopLevel(t) || t.result == TestResult::Pass) continue;
    names.push_back(TestLabel(t, several) +
                    (t.result == TestResult::Unfinished ? " (did not finish)" : ""));
  }
  // A package that failed without a failed test (TestMain, os.Exit in a
  // goroutine before any test ended, a crash at init) is named too.
  size_t bad_packages = 0;
  for (const PackageVerdict& p : v.packages) {
    if (p.ok) continue;
    bool explained = false;
    for (const TestVerdict& t : v.tests) {
      explained = explained || (t.package == p.package && t.result != TestResult::Pass);
    }
    if (!explained) {
      bad_packages++;
      names.push_back(fmt::format("{}: {}", p.package.empty() ? "the program" : p.package,
                                  p.how));
    }
  }
  std::string list;
  for (size_t i = 0; i < names.size() && i < kNamesListed; i++) {
    list += (i ? ", " : "") + names[i];
  }
  if (names.size() > kNamesListed) list += fmt::format(", and {} more", names.size() - kNamesListed);

  std::string line;
  if (failed > 0) {
    line = fmt::format("{} of {} test{} failed", failed, total, total == 1 ? "" : "s");
  } else if (bad_packages > 0 && v.tests.empty() && v.packages.size() == 1) {
    return fmt::format("{} {}", v.packages[0].package.empty() ? "the program"
                                                              : v.packages[0].package,
                       v.packages[0].how);
  } else if (bad_packages > 0) {
    line = fmt::format("{} test binar{} failed", bad_packages, bad_packages == 1 ? "y" : "ies");
  } else if (total > 0) {
    line = fmt::format("{} test{} passed", total, total == 1 ? "" : "s");
  }
  if (!list.empty()) line += fmt::format(" ({})", list);
  if (v.build_failed) line += line.empty() ? "the build failed" : "; the build failed";
  if (!v.go_failure.empty()) {
    line += (line.empty() ? "" : "; ") + v.go_failure;
  }
  return line;
}

}  // namespace gordian::report
