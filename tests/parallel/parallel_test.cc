// End-to-end tests of gordian test -p (pipeline/analysis_pool.h) on
// packages of the test corpus (tests/corpus): one package at a time and two
// at once give the same report (confirmed and occurred bugs, warnings,
// tests, packages, and the order of all of them), byte for byte in the
// terminal report and in JSON and SARIF once infos are left out and the name
// of the run's scratch directory is masked. Infos are left out because
// their details (which send a receive got, how many of N sends were
// concurrent) follow the interleaving the recording saw, which differs
// between any two runs, -p 1 against -p 1 too. And under a
// memory budget whose half is too small for one trace, -p 2 still gives
// the full analysis (the trace is analysed again alone with the whole
// budget) instead of dropping predictions. The progress line (cli/progress.h)
// under a pseudo-terminal (script -qc) is rewritten in place and erased
// before the report; without a terminal, --json - on stdout is the report
// alone (go test's output goes to stderr) and stderr has no control
// characters. Needs the go command and the gordian binary (label "record").
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../e2e_env.h"
#include "gordian/driver/process.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

using e2e::Gordian;
using e2e::Slurp;
using e2e::SourceDir;

// The scratch directory (driver/work_dir.h: run-XXXXXX) that the reproduce
// commands name differs from run to run.
std::string MaskRunDir(const std::string& s) {
  static const std::regex run_dir("run-[A-Za-z0-9]{6}");
  return std::regex_replace(s, run_dir, "run-*");
}

// The JSON report without its infos.
std::string JsonWithoutInfos(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return "not JSON: " + text;
  auto& f = j["findings"];
  f.erase(std::remove_if(f.begin(), f.end(),
                         [](const nlohmann::json& x) { return x.value("severity", "") == "info"; }),
          f.end());
  return MaskRunDir(j.dump(2));
}

// The SARIF log without its notes (infos), rules and all.
std::string SarifWithoutNotes(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return "not JSON: " + text;
  for (auto& run : j["runs"]) {
    auto& r = run["results"];
    r.erase(std::remove_if(r.begin(), r.end(),
                           [](const nlohmann::json& x) { return x.value("level", "") == "note"; }),
            r.end());
  }
  return MaskRunDir(j.dump(2));
}

class ParallelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() /
           ("gordian-parallel-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  // gordian test -p P ARGS PACKAGES in tests/corpus, its reports in tmp_/NAME.*.
  driver::ProcessResult Test(const std::string& name, int p, std::vector<std::string> args,
                             const std::vector<std::string>& packages) {
    driver::ProcessSpec spec;
    spec.argv = {Gordian(), "test", "-p", std::to_string(p), "--quiet-program",
                 "--json", (tmp_ / (name + ".json")).string(),
                 "--sarif", (tmp_ / (name + ".sarif")).string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.argv.insert(spec.argv.end(), packages.begin(), packages.end());
    spec.cwd = SourceDir() + "/tests/corpus";
    spec.pass_through = false;
    spec.timeout_seconds = 300;
    spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    return r;
  }
  nlohmann::json Json(const std::string& name) {
    return nlohmann::json::parse(Slurp(tmp_ / (name + ".json")), nullptr, false);
  }

  fs::path tmp_;
};

TEST_F(ParallelTest, OneAndTwoAtOnceGiveTheSameReports) {
  // Bugs confirmed by replay (lock order, mixed deadlock, negative
  // WaitGroup, send on closed), occurred ones (close of closed), a correct
  // package with infos and one with recovered misuse (warnings).
  std::vector<std::string> packages = {
      "./bugs/bank_transfer_lock_order", "./bugs/eventbus_publish_holding_lock",
      "./bugs/foreach_add_after_spawn",  "./bugs/scraper_deadline_close",
      "./bugs/conn_once_and_direct_close", "./bugs/server_stop_twice",
      "./correct/fanin_merge",           "./correct/misuse_panics_recovered"};
  driver::ProcessResult one = Test("p1", 1, {}, packages);
  driver::ProcessResult two = Test("p2", 2, {}, packages);
  ASSERT_EQ(one.exit_code, 1) << one.err;  // bugs found
  ASSERT_EQ(two.exit_code, 1) << two.err;
  nlohmann::json j = Json("p1");
  ASSERT_TRUE(j.is_object());
  size_t confirmed = 0;
  for (const auto& f : j.at("findings")) confirmed += f.value("status", "") == "confirmed";
  EXPECT_GE(confirmed, 4u) << one.err;
  EXPECT_EQ(j.at("packages").size(), packages.size());
  EXPECT_EQ(MaskRunDir(one.out), MaskRunDir(two.out));  // the terminal report: no infos
  EXPECT_EQ(JsonWithoutInfos(Slurp(tmp_ / "p1.json")), JsonWithoutInfos(Slurp(tmp_ / "p2.json")));
  EXPECT_EQ(SarifWithoutNotes(Slurp(tmp_ / "p1.sarif")),
            SarifWithoutNotes(Slurp(tmp_ / "p2.sarif")));
}

TEST_F(ParallelTest, AShareTooSmallForATraceIsNotWhatItGets) {
  // eventbus_publish_holding_lock's second engine (its mixed deadlock)
  // does not fit in 16 KB and does in 32 KB (about 22 KB in Go 1.26; -p 1
  // checks both).
  std::vector<std::string> packages = {"./bugs/eventbus_publish_holding_lock",
                                       "./bugs/bank_transfer_lock_order"};
  driver::ProcessResult small = Test("small", 1, {"--no-confirm", "-mem", "16K"}, packages);
  ASSERT_LE(small.exit_code, 1) << small.err;
  ASSERT_GE(Json("small").value("degraded", nlohmann::json::array()).size(), 1u)
      << "16 KB no longer degrades the analysis: pick a smaller -mem here";
  driver::ProcessResult one = Test("one", 1, {"--no-confirm", "-mem", "32K"}, packages);
  ASSERT_LE(one.exit_code, 1) << one.err;
  ASSERT_TRUE(Json("one").value("degraded", nlohmann::json::array()).empty());
  // Two at once: each starts with 16 KB, and the one that needs more is
  // analysed again with 32 KB.
  driver::ProcessResult two = Test("two", 2, {"--no-confirm", "-mem", "32K"}, packages);
  ASSERT_LE(two.exit_code, 1) << two.err;
  EXPECT_TRUE(Json("two").value("degraded", nlohmann::json::array()).empty());
  EXPECT_EQ(JsonWithoutInfos(Slurp(tmp_ / "one.json")), JsonWithoutInfos(Slurp(tmp_ / "two.json")));
}

TEST_F(ParallelTest, ProgressOnATerminalIsOneLineErasedBeforeTheReport) {
  if (driver::LookPath("script").empty()) GTEST_SKIP() << "no script(1)";
  driver::ProcessSpec spec;
  spec.argv = {"script", "-qec",
               Gordian() + " test -p 2 --no-confirm ./bugs/server_stop_twice ./correct/fanin_merge",
               "/dev/null"};
  spec.cwd = SourceDir() + "/tests/corpus";
  spec.pass_through = false;
  spec.timeout_seconds = 300;
  spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
  spec.set_env["COLUMNS"] = "100";
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const std::string& out = r.out;  // the terminal's: stdout and stderr together
  EXPECT_NE(out.find("\r\x1b[Kgordian test: recording: "), std::string::npos) << out;
  size_t analysed = out.rfind("\r\x1b[Kgordian test: analysed ");
  ASSERT_NE(analysed, std::string::npos) << out;
  // The last line is erased before the report starts.
  size_t report = out.find("(occurred)", analysed);
  ASSERT_NE(report, std::string::npos) << out;
  size_t erase = out.find("\r\x1b[K", analysed + 1);
  EXPECT_LT(erase, report) << out;
  // go test's lines are never cut by the progress line.
  EXPECT_NE(out.find("\nFAIL\tgordian.test/corpus/bugs/server_stop_twice"), std::string::npos)
      << out;
}

TEST_F(ParallelTest, WithoutATerminalStdoutHoldsTheJsonReportAndStderrPlainLines) {
  driver::ProcessSpec spec;
  spec.argv = {Gordian(), "test", "-p", "2", "--no-confirm", "--json", "-",
               "./bugs/server_stop_twice", "./correct/fanin_merge"};
  spec.cwd = SourceDir() + "/tests/corpus";
  spec.pass_through = false;
  spec.timeout_seconds = 300;
  spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out.substr(0, 500);
  EXPECT_EQ(j.at("packages").size(), 2u);
  EXPECT_NE(r.err.find("gordian test: recording: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("FAIL\tgordian.test/corpus/bugs/server_stop_twice"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\x1b[K"), std::string::npos) << r.err;
}

TEST_F(ParallelTest, BadCountIsAUsageError) {
  driver::ProcessResult r = Test("bad", -1, {}, {"./correct/fanin_merge"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-p"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gordian
