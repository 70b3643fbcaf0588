// End-to-end tests of what runs around the fuzzing campaigns of
// `gordian fuzz` (docs/fuzzing-schedules.md): an interrupt during -j 2
// runs stops every run at once; a test that crashes the recording run does
// not hide the tests after it (they are listed with go test -list); a test
// that fails on a value check is reported once, with its message, not per
// run; a test -skip skips gets no campaign; -seed is printed and in the
// JSON report; the schedules that add
// coverage are kept in the package's testdata/gordian-fuzz/<test>/ and
// run first next time, and a corrupt file there is a warning naming it.
//
// Each test copies this directory's module to a scratch directory and
// runs there (the corpus is written beside the package). Needs the go
// command and the gordian binary (label "record").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../e2e_env.h"
#include "gordian/driver/process.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

using e2e::Gordian;
using e2e::Slurp;
using e2e::SourceDir;

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) n++;
  return n;
}

class FuzzCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() /
           ("gordian-fuzzcmd-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
    module_ = tmp_ / "m";
    fs::copy(SourceDir() + "/tests/fuzzcmd", module_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  driver::ProcessSpec Spec(std::vector<std::string> argv) {
    driver::ProcessSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = module_.string();
    spec.pass_through = false;
    spec.timeout_seconds = 400;
    spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
    return spec;
  }
  // gordian fuzz ARGS in the copy, with the JSON report in tmp_.
  driver::ProcessResult Fuzz(std::vector<std::string> args) {
    std::vector<std::string> argv = {Gordian(), "fuzz", "--json", (tmp_ / "report.json").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(Spec(argv), &r, &err)) << err;
    return r;
  }
  nlohmann::json Report() {
    return nlohmann::json::parse(Slurp(tmp_ / "report.json"), nullptr, false);
  }

  fs::path tmp_, module_;
};

// Ctrl-C (SIGINT from a shell) while two runs are in flight: both test
// binaries and their go commands are gone within seconds, nothing is
// reported, exit 2. (The interrupt used to reach the last run started
// only; the other ran on for its minute.) The scratch directories an
// interrupt leaves are tests/verdict's concern (the same code removes
// them); with a cache of its own this test would build std again.
TEST_F(FuzzCmdTest, InterruptDuringParallelRunsLeavesNoProcess) {
  // The patterns do not match the script's own command line ("[.]" is
  // no "."), only the test binaries of the runs (go test -c and the
  // linker name slowruns.test too, without the binary's flag).
  std::string script =
      "\"$0\" fuzz -j 2 -budget 300s -run-wall 200s -stale 0 --json \"$1\" ./slowruns & p=$!; "
      "i=0; while [ $(pgrep -c -f 'slowruns[.]test -test[.]paniconexit0') -lt 2 ] && "
      "[ $i -lt 600 ]; do "
      "sleep 0.2; i=$((i+1)); done; "
      "echo \"running=$(pgrep -c -f 'slowruns[.]test -test[.]paniconexit0')\"; "
      "kill -INT $p; start=$(date +%s); wait $p; rc=$?; "
      "echo \"rc=$rc after=$(( $(date +%s) - start ))\"; sleep 1; "
      "pgrep -f 'slowruns[.]test|TestSlow[$]' >/dev/null && echo leftover=yes || echo leftover=no";
  driver::ProcessSpec spec =
      Spec({"sh", "-c", script, Gordian(), (tmp_ / "report.json").string()});
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  EXPECT_NE(r.out.find("running=2"), std::string::npos) << "two runs at once\n" << r.out << r.err;
  // No bug found before the interrupt: exit 2 (no verdict), and the report
  // of what was found (nothing) says how far the campaign got.
  EXPECT_NE(r.out.find("rc=2 "), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("leftover=no"), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("stopped after 0 of 1 tests (interrupted)"), std::string::npos) << r.err;
  nlohmann::json j = Report();
  ASSERT_TRUE(j.is_object() && j.contains("findings")) << "the report of what was found\n" << r.err;
  EXPECT_TRUE(j["findings"].empty()) << j.dump();
  size_t at = r.out.find("after=");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_LT(std::stoi(r.out.substr(at + 6)), 20) << "within seconds, not the minute a run sleeps\n"
                                                  << r.out;
}

// TestCrash crashes the binary of the recording run before TestAfter
// starts; TestAfter is fuzzed all the same. TestCrash's panic is a finding
// (reported once), which explains its failure.
TEST_F(FuzzCmdTest, ACrashingTestDoesNotHideTheTestsAfterIt) {
  driver::ProcessResult r = Fuzz({"-j", "1", "-budget", "60s", "-max-runs", "2", "./crashfirst"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian fuzz: TestAfter: 2 runs in "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gordian fuzz: TestCrash: 2 runs in "), std::string::npos) << r.err;
  // The panic is a finding of its own (occurred), once for the campaign.
  EXPECT_EQ(Count(r.err, "TestCrash: panic at "), 1u) << r.err;
  EXPECT_EQ(Count(r.err, "the test failed in"), 0u) << "the panic explains the failure\n"
                                                   << r.err;
}

// -skip leaves a test out of the listing (go test -list ignores -skip):
// a skipped test gets no campaign. An alternative with a subtest level
// skips subtests only, so TestCrash, named that way, is fuzzed.
TEST_F(FuzzCmdTest, ASkippedTestGetsNoCampaign) {
  driver::ProcessResult r =
      Fuzz({"-j", "1", "-budget", "60s", "-max-runs", "2", "-skip", "TestCrash", "./crashfirst"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian fuzz: TestAfter: 2 runs in "), std::string::npos) << r.err;
  EXPECT_EQ(Count(r.err, "TestCrash"), 0u) << "no campaign, no finding\n" << r.err;
  r = Fuzz({"-j", "1", "-budget", "60s", "-max-runs", "2", "-skip", "TestCrash/sub|TestAfter",
            "./crashfirst"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian fuzz: TestCrash: 2 runs in "), std::string::npos) << r.err;
  EXPECT_EQ(Count(r.err, "TestAfter"), 0u) << r.err;
}

// A value check that fails in every run: one line for the campaign (with
// the check's message), one entry in the JSON report; the seed given is
// printed and in the report; no corpus is written (only free runs, which
// add no schedule).
TEST_F(FuzzCmdTest, AFailingValueCheckIsReportedOnceWithTheSeed) {
  driver::ProcessResult r =
      Fuzz({"-j", "2", "-budget", "60s", "-max-runs", "4", "-seed", "7", "./valuecheck"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("gordian fuzz: seed 7; 1 test, each ends within "), std::string::npos)
      << r.err;
  EXPECT_EQ(Count(r.err, "the test failed in"), 1u) << r.err;
  EXPECT_NE(r.err.find("TestValue: the test failed in 4 of 4 runs with no concurrency finding"),
            std::string::npos)
      << r.err;
  // (go test's own output of the recording run goes to stdout.)
  EXPECT_EQ(Count(r.err, "sum = 5, want 6"), 1u) << r.err;
  nlohmann::json j = Report();
  ASSERT_TRUE(j.is_object() && j.contains("fuzz")) << r.err;
  EXPECT_EQ(j["fuzz"]["seed"], 7);
  ASSERT_EQ(j["fuzz"]["test_failures"].size(), 1u) << j.dump();
  const nlohmann::json& tf = j["fuzz"]["test_failures"][0];
  EXPECT_EQ(tf["test"], "TestValue");
  EXPECT_EQ(tf["package"], "gordian.test/fuzzcmd/valuecheck");
  EXPECT_EQ(tf["runs"], 4);
  EXPECT_NE(tf["output"].get<std::string>().find("sum = 5, want 6"), std::string::npos) << tf;
  EXPECT_FALSE(fs::exists(module_ / "valuecheck" / "testdata")) << "no bug, nothing in the tree";
}

// The working corpus (the schedules that added coverage) is kept in the
// gordian cache, not in the user's tree, and run first by the next
// campaign; a corrupt file among them is named in a warning and skipped.
// The schedule that reproduces the bug goes to the package's
// testdata/gordian-fuzz/<test>/ (as go test -fuzz keeps a failing input),
// is named when found, and runs first next time too.
TEST_F(FuzzCmdTest, TheCorpusIsInTheCacheAndBugSchedulesInTestdata) {
  fs::path bugs = module_ / "partner" / "testdata" / "gordian-fuzz" / "TestPartner";
  driver::ProcessResult r =
      Fuzz({"-j", "2", "-budget", "60s", "-stale", "0", "-max-runs", "6", "./partner"});
  ASSERT_NE(r.exit_code, 2) << r.out << r.err;
  // "corpus: 0 replayed, K added to DIR"
  const std::string added = "corpus: 0 replayed, ";
  size_t at = r.err.find(added);
  ASSERT_NE(at, std::string::npos) << r.err;
  size_t kept_in_line = std::stoul(r.err.substr(at + added.size()));
  size_t to = r.err.find(" added to ", at);
  ASSERT_NE(to, std::string::npos) << r.err;
  fs::path corpus = r.err.substr(to + 10, r.err.find('\n', to) - to - 10);
  EXPECT_EQ(corpus.string().find(module_.string()), std::string::npos)
      << "the working corpus is not in the package: " << corpus;
  ASSERT_TRUE(fs::is_directory(corpus)) << r.err;
  size_t kept = 0;
  for (const auto& e : fs::directory_iterator(corpus)) {
    std::string text = Slurp(e.path());
    EXPECT_EQ(text.rfind("gordian-schedule 1\n", 0), 0u) << e.path();
    EXPECT_EQ(text.find("cmd."), std::string::npos) << "no invocation stored: " << e.path();
    EXPECT_EQ(text.find(module_.string()), std::string::npos)
        << "sites relative to the package: " << e.path();
    EXPECT_EQ(e.path().filename().string().size(), 16u) << e.path();
    kept++;
  }
  ASSERT_GE(kept, 1u);
  EXPECT_EQ(kept, kept_in_line);
  // The bug (send on the closed channel) and its schedule in testdata.
  ASSERT_EQ(r.exit_code, 1) << r.err;
  ASSERT_TRUE(fs::is_directory(bugs)) << r.err;
  size_t bug_files = 0;
  for (const auto& e : fs::directory_iterator(bugs)) {
    bug_files++;
    // The file says which bug it reproduces.
    EXPECT_NE(Slurp(e.path()).find("\norigin gordian fuzz: reproduces send-on-closed at "),
              std::string::npos)
        << Slurp(e.path());
    EXPECT_NE(r.err.find("its schedule: testdata/gordian-fuzz/TestPartner/" +
                         e.path().filename().string()),
              std::string::npos)
        << r.err;
  }
  EXPECT_GE(bug_files, 1u);

  std::ofstream(corpus / "broken") << "gordian-schedule 1\nnot a schedule line\n";
  r = Fuzz({"-j", "2", "-budget", "60s", "-stale", "0", "-max-runs", "3", "./partner"});
  ASSERT_NE(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(Count(r.err, "corpus: " + (corpus / "broken").string() + ": "), 1u) << r.err;
  EXPECT_NE(r.err.find(fmt::format("corpus: {} replayed", kept + bug_files)), std::string::npos)
      << r.err;
  fs::remove_all(corpus.parent_path());
}

// Each strategy alone, on programs whose selects have a case that is ready
// in every schedule (a closed channel, a cancelled context, a fired timer,
// a buffered value: the default that panics is out of Go's reach) and on a
// breaker whose calls a schedule may hold inside their critical section
// past the end of the test: no strategy's schedule may produce a finding a
// plain run of the same program cannot (a forced default, a leak made by a
// hold). The corpus is not written (-corpus off).
TEST_F(FuzzCmdTest, EveryStrategyAloneKeepsGoSemantics) {
  for (const char* strategy : {"prediction", "flip", "select", "delay", "chain", "pairs"}) {
    std::vector<std::string> argv = {Gordian(), "fuzz", "--json", (tmp_ / "report.json").string(),
                                     "-strategies", strategy, "-budget", "6s", "-stale", "2s",
                                     "-seed", "7", "-corpus", "off", "-j", "2",
                                     "./fuzz/correct/ready_case_beats_default",
                                     "./fuzz/correct/breaker_select_under_lock"};
    driver::ProcessSpec spec = Spec(argv);
    spec.cwd = SourceDir() + "/tests/corpus";
    driver::ProcessResult r;
    std::string err;
    ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    EXPECT_EQ(r.exit_code, 0) << strategy << ":\n" << r.out << r.err;
    nlohmann::json j = Report();
    ASSERT_TRUE(j.contains("findings")) << strategy << ": " << r.err;
    for (const auto& f : j["findings"]) {
      EXPECT_EQ(f.value("severity", ""), "info")
          << strategy << ": " << f.value("kind", "") << " " << f.value("message", "");
    }
  }
}

}  // namespace
}  // namespace gordian
