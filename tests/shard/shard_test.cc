// End-to-end tests of -shard I/N and gordian merge (docs/scale.md) on the
// corpus (4 shards merged equal the unsharded run) and on the Go module
// beside this file: its tests run as 4 shards of gordian test,
// merged, give the findings (by de-duplication key, kind and status; one
// bug is found in two shards and reported once) and
// the test results of the unsharded run, each test, example and fuzz
// target's seed corpus in exactly one shard;
// gordian fuzz -shard fuzzes only its shard's tests; bad -shard values and
// a report that does not parse are errors (exit 2) that say what is wrong.
// Needs the go command and the gordian binary (label "record").
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "../e2e_env.h"
#include "gordian/driver/process.h"
#include "gordian/report/dedup.h"
#include "gordian/report/json.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;

using e2e::Gordian;
using e2e::Slurp;
using e2e::SourceDir;

using FindingKey = std::tuple<std::string, std::string, std::string>;  // key, kind, status
using TestKey = std::tuple<std::string, std::string, std::string>;  // package, name, result

class ShardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() /
           ("gordian-shard-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
    module_ = tmp_ / "m";
    fs::copy(SourceDir() + "/tests/shard", module_, fs::copy_options::recursive);
    fs::remove(module_ / "shard_test.cc");
    fs::remove(module_ / "CMakeLists.txt");
  }
  void TearDown() override { fs::remove_all(tmp_); }

  driver::ProcessResult Run(std::vector<std::string> args, const std::string& runs_file = "",
                            int timeout_seconds = 120) {
    driver::ProcessSpec spec;
    spec.argv = {Gordian()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = module_.string();
    spec.pass_through = false;
    spec.timeout_seconds = timeout_seconds;
    spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
    if (!runs_file.empty()) spec.set_env["SHARD_RUNS"] = runs_file;
    driver::ProcessResult r;
    std::string err;
    EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    return r;
  }
  // gordian test ARGS ./... with its JSON report in tmp_/NAME.json.
  driver::ProcessResult Test(const std::string& name, std::vector<std::string> args) {
    std::vector<std::string> argv = {"test", "--no-confirm", "--quiet", "--quiet-program",
                                     "--json", (tmp_ / (name + ".json")).string()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("./...");
    return Run(argv, (tmp_ / (name + ".runs")).string());
  }
  // The findings of report NAME; without_infos leaves out the info
  // severity, whose details follow the recorded interleaving.
  std::multiset<FindingKey> Findings(const std::string& name, bool without_infos = false) {
    report::JsonReport r;
    std::string err;
    EXPECT_TRUE(report::FromJsonReport(Slurp(tmp_ / (name + ".json")), &r, &err)) << name << err;
    std::multiset<FindingKey> out;
    for (const report::Finding& f : r.findings) {
      if (without_infos && f.severity == report::Severity::Info) continue;
      out.insert({report::DedupKey(f), std::string(report::KindName(f.kind)),
                  std::string(report::StatusName(f.status))});
    }
    return out;
  }
  // The examples and fuzz targets that ran (package b's ran()).
  std::multiset<std::string> Ran(const std::string& name) {
    std::multiset<std::string> out;
    std::istringstream in(Slurp(tmp_ / (name + ".runs")));
    for (std::string line; std::getline(in, line);) out.insert(line);
    return out;
  }
  std::multiset<TestKey> Tests(const std::string& name) {
    auto doc = nlohmann::json::parse(Slurp(tmp_ / (name + ".json")), nullptr, false);
    std::multiset<TestKey> out;
    for (const auto& t : doc.value("tests", nlohmann::json::array())) {
      out.insert({t.at("package").get<std::string>(), t.at("name").get<std::string>(),
                  t.at("result").get<std::string>()});
    }
    return out;
  }

  fs::path tmp_, module_;
};

TEST_F(ShardTest, FourShardsMergedEqualTheUnshardedRun) {
  driver::ProcessResult full = Test("full", {});
  ASSERT_EQ(full.exit_code, 1) << full.err;  // TestFails fails, bugs are found
  std::multiset<FindingKey> want = Findings("full");
  std::multiset<TestKey> want_tests = Tests("full");
  // The module's bugs: four leaks and a predicted send on a closed channel.
  ASSERT_EQ(want.size(), 5u) << full.err;
  ASSERT_EQ(want_tests.size(), 9u) << full.err;  // 8 tests and FuzzSeed's seed
  std::multiset<std::string> want_ran = Ran("full");
  ASSERT_EQ(want_ran, (std::multiset<std::string>{"Example", "FuzzSeed"}));

  std::vector<std::string> merge = {"merge", "--quiet", "--json", (tmp_ / "merged.json").string()};
  std::multiset<TestKey> shard_tests;
  std::multiset<std::string> shard_ran;
  size_t shards_with_tests = 0, shard_findings = 0;
  for (int i = 0; i < 4; i++) {
    std::string name = "shard" + std::to_string(i);
    driver::ProcessResult r = Test(name, {"-shard", std::to_string(i) + "/4"});
    ASSERT_LE(r.exit_code, 1) << name << ": " << r.err << r.out;
    std::multiset<TestKey> t = Tests(name);
    shards_with_tests += t.empty() ? 0 : 1;
    shard_findings += Findings(name).size();
    for (const std::string& e : Ran(name)) shard_ran.insert(e);
    shard_tests.insert(t.begin(), t.end());
    merge.push_back((tmp_ / (name + ".json")).string());
  }
  // Each test ran in exactly one shard, and the split is a real one.
  EXPECT_EQ(shard_tests, want_tests);
  EXPECT_EQ(shard_ran, want_ran);  // the example and the fuzz target's seed, once
  EXPECT_GE(shards_with_tests, 2u);
  // The leak in leakSender is found by a test of two shards: the merge has
  // a duplicate to remove.
  EXPECT_GT(shard_findings, want.size());

  driver::ProcessResult merged = Run(merge);
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_EQ(Findings("merged"), want);
  EXPECT_EQ(Tests("merged"), want_tests);
}

// The same on the corpus (its bugs and correct sections, 68 tests in 86
// packages): 4 shards merged give the unsharded run's bugs and warnings
// and test results. Infos are left out: their details follow the
// recorded interleaving, which differs between two unsharded runs too.
TEST_F(ShardTest, TheCorpusInFourShardsMergedEqualsTheUnshardedRun) {
  module_ = fs::path(SourceDir()) / "tests/corpus";
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> argv = {"test", "--no-confirm", "--quiet", "--quiet-program",
                                     "--json", (tmp_ / (name + ".json")).string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), {"./bugs/...", "./correct/..."});
    return Run(argv, "", 900);
  };
  driver::ProcessResult full = run("full", {});
  ASSERT_EQ(full.exit_code, 1) << full.err;  // the bugs
  std::multiset<FindingKey> want = Findings("full", true);
  std::multiset<TestKey> want_tests = Tests("full");
  ASSERT_GE(want.size(), 30u) << full.err;
  ASSERT_GE(want_tests.size(), 60u) << full.err;
  std::vector<std::string> merge = {"merge", "--quiet", "--json", (tmp_ / "merged.json").string()};
  for (int i = 0; i < 4; i++) {
    std::string name = "shard" + std::to_string(i);
    driver::ProcessResult r = run(name, {"-shard", std::to_string(i) + "/4"});
    ASSERT_LE(r.exit_code, 1) << name << ": " << r.err << r.out;
    EXPECT_LT(Tests(name).size(), want_tests.size()) << name << ": not a real split";
    merge.push_back((tmp_ / (name + ".json")).string());
  }
  driver::ProcessResult merged = Run(merge);
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_EQ(Findings("merged", true), want);
  EXPECT_EQ(Tests("merged"), want_tests);
}

TEST_F(ShardTest, FuzzFuzzesOnlyItsShard) {
  // Which shard holds TestPassA alone is what the unit tests' hash says;
  // find it from gordian test's split.
  int alone = -1;
  for (int i = 0; i < 4 && alone < 0; i++) {
    std::string name = "t" + std::to_string(i);
    Test(name, {"-shard", std::to_string(i) + "/4"});
    if (Tests(name) == std::multiset<TestKey>{{"gordian.test/shard/a", "TestPassA", "pass"}}) {
      alone = i;
    }
  }
  ASSERT_GE(alone, 0) << "no shard holds TestPassA alone: the split changed";
  driver::ProcessResult r =
      Run({"fuzz", "--no-confirm", "--quiet", "-budget", "2s", "-max-runs", "2", "-shard",
           std::to_string(alone) + "/4", "--json", (tmp_ / "fuzz.json").string(), "./..."});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Tests("fuzz"), (std::multiset<TestKey>{{"gordian.test/shard/a", "TestPassA", "pass"}}));
  EXPECT_TRUE(Findings("fuzz").empty());
}

TEST_F(ShardTest, BadValuesAndBadReportsAreErrors) {
  for (const char* bad : {"4/4", "x", "1/0"}) {
    for (const char* cmd : {"test", "fuzz"}) {
      driver::ProcessResult r = Run({cmd, "-shard", bad, "./..."});
      EXPECT_EQ(r.exit_code, 2) << cmd << " " << bad;
      EXPECT_NE(r.err.find("-shard"), std::string::npos) << r.err;
    }
  }
  std::ofstream(tmp_ / "bad.json") << "{\"version\": 1, \"tool\": \"gordian\"";
  driver::ProcessResult r = Run({"merge", (tmp_ / "bad.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  r = Run({"merge", (tmp_ / "missing.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gordian
