// One schedule grammar for both readers (label "replay": needs Go). Every
// case of schedule/testdata/grammar/ goes to the C++ reader (ReadSchedule) and to
// the runtime's (gordianReplayInit, in testdata/grammarprobe built once
// with the recording overlay and run with GORDIAN_SCHEDULE set to the
// case); both verdicts must be the case's label. A case they disagree on
// is what made `gordian replay` start runs the runtime then refused.
// Also: a replay the runtime refuses is an error of the Go runner (exit 2
// of `gordian replay`), not a divergence at position 0.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/schedule/grammar_corpus.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/schedule/schedule.h"

namespace gordian::schedule {
namespace {

namespace fs = std::filesystem;

class ScheduleGrammar : public ::testing::Test {
 protected:
  // The probe is built once for the suite: a build takes seconds, a run
  // milliseconds.
  static void SetUpTestSuite() {
    if (driver::LookPath("go").empty()) {
      std::string path = getenv("PATH") ? getenv("PATH") : "";
      setenv("PATH", ("/usr/local/go/bin:" + path).c_str(), 1);
    }
    if (driver::LookPath("go").empty()) return;
    std::string tmpl = (fs::temp_directory_path() / "gordian-grammar-test-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) return;
    dir_ = tmpl;
    const char* src = getenv("GORDIAN_SOURCE_DIR");
    if (src == nullptr) return;
    driver::RecordOptions ro;
    ro.mode = driver::RecordMode::kRun;
    ro.cwd = std::string(src) + "/src/gordian/pipeline/testdata";
    ro.args = {"./grammarprobe"};
    ro.out_dir = dir_ + "/build-trace";
    ro.pass_through = false;
    ro.wall_seconds = 60;
    ro.env["GORDIAN_PROBE_COPY_TO"] = dir_ + "/probe";
    driver::RecordResult rr;
    std::string err;
    if (!driver::Record(ro, &rr, &err) || rr.build_failed || !rr.run.Succeeded()) {
      build_error_ = err + rr.run.err;
      return;
    }
    probe_ = dir_ + "/probe";
  }
  static void TearDownTestSuite() {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  void SetUp() override {
    if (driver::LookPath("go").empty()) GTEST_SKIP() << "no go command in PATH";
    ASSERT_FALSE(probe_.empty()) << "cannot build testdata/grammarprobe: " << build_error_;
  }

  // The runtime's verdict on the schedule file at path: 1 accepted, 0
  // refused, -1 neither (*why says what happened).
  static int RuntimeVerdict(const std::string& path, std::string* why) {
    driver::ProcessSpec spec;
    spec.argv = {probe_};
    std::string trace = dir_ + "/trace";
    fs::remove_all(trace);
    spec.set_env["GORDIAN_TRACE_DIR"] = trace;
    spec.set_env["GORDIAN_SCHEDULE"] = path;
    // A schedule the probe does not follow ends at the first stall.
    spec.set_env["GORDIAN_REPLAY_STALL_MS"] = "1";
    spec.unset_env = {"GORDIAN_PROBE_COPY_TO", "GORDIAN_RECORD_OUT"};
    spec.pass_through = false;
    spec.timeout_seconds = 30;
    driver::ProcessResult res;
    if (!driver::RunProcess(spec, &res, why)) return -1;
    std::string err = res.err.substr(0, 300);
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    *why = res.Describe() + (err.empty() ? "" : ": " + err);
    if (res.Succeeded()) return 1;
    if (res.exit_code == 2 && res.err.find("gordian: bad schedule") != std::string::npos) {
      return 0;
    }
    return -1;
  }

  static std::string dir_, probe_, build_error_;
};

std::string ScheduleGrammar::dir_, ScheduleGrammar::probe_, ScheduleGrammar::build_error_;

TEST_F(ScheduleGrammar, BothReadersAgreeOnTheCorpus) {
  std::vector<GrammarCase> cases = GrammarCorpus();
  ASSERT_GT(cases.size(), 100u) << "GORDIAN_SOURCE_DIR must name the source tree";
  std::string failures;
  for (const GrammarCase& c : cases) {
    ASSERT_FALSE(c.name.empty()) << c.path << ": a case is named ok-* or bad-*";
    Schedule s;
    std::string cpp_err, rt_why;
    bool cpp = ReadSchedule(c.path, &s, &cpp_err);
    if (cpp_err.starts_with(c.path + ": ")) cpp_err.erase(0, c.path.size() + 2);
    int rt = RuntimeVerdict(c.path, &rt_why);
    auto word = [](int v) { return v == 1 ? "accepts" : v == 0 ? "refuses" : "fails on"; };
    if (cpp != c.valid || rt != static_cast<int>(c.valid)) {
      failures += c.name + ": C++ " + word(cpp) + (cpp ? "" : " (" + cpp_err + ")") +
                  ", runtime " + word(rt) + " (" + rt_why + ")" +
                  (cpp == (rt == 1) ? "" : " [THE READERS DISAGREE]") + "\n";
    }
  }
  EXPECT_EQ(failures, "") << "cases whose verdict is not their label:\n" << failures;
}

// The Go runner is given a schedule gordian accepts but a file the runtime
// refuses (as when the readers disagreed): the replay did not start, and
// that is an error that says why, not "diverged after 0 of N".
TEST_F(ScheduleGrammar, ReplayOfARefusedScheduleIsAnError) {
  const char* src = getenv("GORDIAN_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  std::string text = "gordian-schedule 1\ncmd.mode run\ncmd.cwd " + std::string(src) +
                     "/src/gordian/pipeline/testdata\ncmd.arg ./grammarprobe\ng 1\n"
                     "o 0 5 - send 1 1 0 0 0 ?\n";
  Schedule s;
  std::string err;
  ASSERT_TRUE(ParseSchedule(text, &s, &err)) << err;
  std::string path = dir_ + "/refused.schedule";
  {
    std::string bad = text + "o 0 261 - send 1 2 1 0 0 ?\n";  // kind 261: a byte would wrap to 5
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fwrite(bad.data(), 1, bad.size(), f);
    fclose(f);
  }
  pipeline::RunOptions ro;
  ro.out_dir = dir_ + "/replay";
  ro.pass_through = false;
  ro.wall_seconds = 60;
  ro.stall_ms = 1;
  pipeline::GoScheduleRunner runner;
  pipeline::ScheduledRun res;
  EXPECT_FALSE(pipeline::RunSchedule(runner, s, path, ro, &res, &err))
      << DescribeFollow(res.follow);
  EXPECT_NE(err.find("the replay did not start: the runtime refused the schedule: schedule "
                     "line 7: bad kind"),
            std::string::npos)
      << err;
  // The file it was given, unchanged, replays.
  ASSERT_TRUE(WriteSchedule(path, s, &err)) << err;
  EXPECT_TRUE(pipeline::RunSchedule(runner, s, path, ro, &res, &err)) << err;
}

}  // namespace
}  // namespace gordian::schedule
