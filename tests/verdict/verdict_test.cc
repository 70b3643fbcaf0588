// End-to-end tests of go test's verdict through `gordian test`: a failing
// test or a test binary that exits non-zero makes gordian exit 1 (it exited
// 0 before), the summary line and the JSON name the failed tests, a passing
// package exits 0, and a package that does not compile exits 2 with its
// compile error shown once (it was printed twice).
//
// Needs the go command and the gordian binary (label "record").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../e2e_env.h"
#include "gordian/driver/process.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

using e2e::Gordian;
using e2e::SourceDir;
std::string Dir() { return SourceDir() + "/tests/verdict"; }

// Go's build cache (std with the hooks is built there once).
std::string GoCache() {
  driver::ProcessSpec goenv;
  goenv.argv = {"go", "env", "GOCACHE"};
  goenv.pass_through = false;
  driver::ProcessResult gr;
  std::string err;
  EXPECT_TRUE(driver::RunProcess(goenv, &gr, &err)) << err;
  while (!gr.out.empty() && gr.out.back() == '\n') gr.out.pop_back();
  return gr.out;
}

class VerdictTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() /
           ("gordian-verdict-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  // gordian test ARGS in tests/verdict, with the JSON report in tmp_.
  driver::ProcessResult Test(std::vector<std::string> args,
                             std::vector<std::string> unset_env = {}) {
    driver::ProcessSpec spec;
    spec.argv = {Gordian(), "test", "--json", (tmp_ / "report.json").string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = Dir();
    spec.pass_through = false;
    spec.timeout_seconds = 300;
    spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
    spec.unset_env = std::move(unset_env);
    if (!spec.unset_env.empty()) spec.set_env["GOCACHE"] = GoCache();
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    return r;
  }
  nlohmann::json Report() {
    std::ifstream in(tmp_ / "report.json");
    std::stringstream ss;
    ss << in.rdbuf();
    return nlohmann::json::parse(ss.str(), nullptr, false);
  }
  // The result of test name in the JSON report, or "" when it is not there.
  std::string ResultOf(const nlohmann::json& j, const std::string& name) {
    if (!j.contains("tests")) return "";
    for (const auto& t : j["tests"]) {
      if (t.value("name", "") == name) return t.value("result", "");
    }
    return "";
  }

  fs::path tmp_;
};

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) n++;
  return n;
}

TEST_F(VerdictTest, FailingTestExitsOneAndIsNamed) {
  driver::ProcessResult r = Test({"./fails"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL: 1 of 2 tests failed (TestFatal); 0 bugs, 0 warnings"),
            std::string::npos)
      << r.out;
  nlohmann::json j = Report();
  EXPECT_EQ(ResultOf(j, "TestFatal"), "fail") << j.dump();
  EXPECT_EQ(ResultOf(j, "TestPass"), "pass") << j.dump();
  ASSERT_TRUE(j.contains("packages")) << j.dump();
  ASSERT_EQ(j["packages"].size(), 1u);
  EXPECT_EQ(j["packages"][0]["package"], "gordian.test/verdict/fails");
  EXPECT_EQ(j["packages"][0]["ok"], false);
}

TEST_F(VerdictTest, OsExitInAGoroutineExitsOne) {
  driver::ProcessResult r = Test({"./osexit"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL: 1 of 1 test failed (TestExit (did not finish))"), std::string::npos)
      << r.out;
  nlohmann::json j = Report();
  EXPECT_EQ(ResultOf(j, "TestExit"), "unfinished") << j.dump();
}

// A test that fails under recording and passes without it is run once
// more without recording: the report says so, and the exit status stays 1
// (the test did fail). A test that fails either way gets no such note.
TEST_F(VerdictTest, AFailureOnlyUnderRecordingIsNamedTimingSensitive) {
  driver::ProcessResult r = Test({"./slowed", "./fails"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("note: TestFailsWhenRecorded failed under recording and passed when run "
                       "again without it: it is timing-sensitive or flaky"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("note: TestFatal failed under recording"), std::string::npos) << r.out;
  nlohmann::json j = Report();
  bool slowed_noted = false, fatal_noted = false;
  for (const auto& t : j["tests"]) {
    if (t.value("name", "") == "TestFailsWhenRecorded") {
      EXPECT_EQ(t.value("result", ""), "fail");
      slowed_noted = t.value("passes_without_recording", false);
    }
    if (t.value("name", "") == "TestFatal") fatal_noted = t.value("passes_without_recording", false);
  }
  EXPECT_TRUE(slowed_noted) << j.dump();
  EXPECT_FALSE(fatal_noted) << j.dump();
}

TEST_F(VerdictTest, PassingPackageExitsZero) {
  driver::ProcessResult r = Test({"./passes"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n2 tests passed; 0 bugs, 0 warnings"), std::string::npos) << r.out;
  nlohmann::json j = Report();
  EXPECT_EQ(ResultOf(j, "TestTable/a"), "pass") << j.dump();
  EXPECT_EQ(j["packages"][0]["ok"], true);
}

TEST_F(VerdictTest, SeveralPackagesOneFails) {
  driver::ProcessResult r = Test({"./passes", "./fails"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL: 1 of 4 tests failed (gordian.test/verdict/fails.TestFatal)"),
            std::string::npos)
      << r.out;
}

TEST_F(VerdictTest, CompileErrorIsShownOnceAndExitsTwo) {
  driver::ProcessResult r = Test({"./broken"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Count(r.out + r.err, "undefined: undefinedThingInVerdictTest"), 1u) << r.out << r.err;
  // Without the go command's output, gordian prints the error itself.
  r = Test({"--quiet-program", "./broken"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Count(r.out + r.err, "undefined: undefinedThingInVerdictTest"), 1u) << r.out << r.err;
}

// analyze accepts what record test writes (one trace per package under an
// index), and flags after the directory ("analyze DIR --json f" took --json
// and f as two more directories).
TEST_F(VerdictTest, AnalyzeTakesARecordTestDirectoryAndFlagsAfterIt) {
  std::string out = (tmp_ / "rec").string();
  driver::ProcessSpec spec;
  spec.argv = {Gordian(), "record", "-o", out, "test", "./passes", "./fails"};
  spec.cwd = Dir();
  spec.pass_through = false;
  spec.timeout_seconds = 300;
  spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  spec.argv = {Gordian(), "analyze", out, "--json", (tmp_ / "report.json").string()};
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json j = Report();
  EXPECT_TRUE(j.is_object() && j.contains("findings")) << r.err;
  // A report that cannot be written is a failure (it exited 1 and lost it).
  spec.argv = {"sh", "-c", "\"$0\" analyze \"$1\" > /dev/full", Gordian(), out};
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write the report"), std::string::npos) << r.err;
}

// With HOME unset and GOCACHE set, go test works; gordian test did not (go
// refused the overlay: "files beneath GOMODCACHE () must not be replaced").
TEST_F(VerdictTest, HomeUnsetWorksAsGoTestDoes) {
  driver::ProcessResult r = Test({"./passes"}, {"HOME", "XDG_CACHE_HOME", "GOPATH", "GOMODCACHE"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("2 tests passed"), std::string::npos) << r.out << r.err;
}

// Ctrl-C (here SIGINT from a shell) during gordian test stops it at once:
// the test binary and go test are killed, nothing is reported, exit 2, and
// the run's scratch directories in the cache are removed.
TEST_F(VerdictTest, InterruptStopsTheRunAndReportsNothing) {
  fs::path cache = tmp_ / "cache";
  fs::create_directories(cache);
  std::string script =
      "\"$0\" test --json \"$1\" ./interruptme & p=$!; sleep 6; kill -INT $p; "
      "start=$(date +%s); wait $p; rc=$?; echo \"rc=$rc after=$(( $(date +%s) - start ))\"; "
      "sleep 1; pgrep -f [i]nterruptme[.]test >/dev/null && echo leftover=yes || echo leftover=no";
  driver::ProcessSpec spec;
  spec.argv = {"sh", "-c", script, Gordian(), (tmp_ / "report.json").string()};
  spec.cwd = Dir();
  spec.pass_through = false;
  spec.timeout_seconds = 120;
  spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
  spec.set_env["XDG_CACHE_HOME"] = cache.string();
  spec.set_env["GOCACHE"] = GoCache();
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_NE(r.out.find("rc=2 "), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("leftover=no"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian test: interrupted"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp_ / "report.json")) << "no report from an interrupted run";
  // Within seconds, not after the minute the test sleeps.
  size_t at = r.out.find("after=");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LT(std::stoi(r.out.substr(at + 6)), 15) << r.out;
  // No run directory of this command is left in the cache.
  size_t runs = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(cache, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().starts_with("run-")) runs++;
  }
  EXPECT_EQ(runs, 0u);
}

}  // namespace
}  // namespace gordian
