// Tests of the confirmation step with a fake ScheduleRunner (no Go): the
// runner writes a prepared trace as the replayed run's, and the checks on
// top of it (the rewrite's expectations, the occurred detectors) decide.
// The replays of real programs are confirm_corpus_test's (label replay).
#include "gordian/pipeline/confirm.h"

#include "gordian/driver/deadline.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <functional>

#include <gtest/gtest.h>

#include "gordian/hb/happens_before.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/trace/writer.h"
#include "gordian/util/temp_dir_test.h"

namespace gordian::pipeline {
namespace {

namespace fs = std::filesystem;
using report::FindingKind;
using report::Status;
using trace::Kind;
using trace::RecordRef;
using trace::TraceWriter;

// main makes a buffered channel and spawns 1.0; 1.0 sends on it at
// main.go:12, main closes it at main.go:10. Where the two are not ordered
// (sent_first false): main closes, then 1.0's send finds the channel closed
// and panics.
TraceWriter SendRacingClose(bool sent_first) {
  TraceWriter w;
  uint32_t mk = w.AddSite("/p/main.go", 5, "main.main");
  uint32_t go = w.AddSite("/p/main.go", 6, "main.main");
  uint32_t cl = w.AddSite("/p/main.go", 10, "main.main");
  uint32_t sd = w.AddSite("/p/main.go", 12, "main.worker");
  uint32_t ch = w.NewObject();
  w.Op(1, Kind::ChanMake, ch, 1, mk);
  uint32_t g = w.Go(1, go);
  if (sent_first) {
    w.Op(g, Kind::ChanSend, ch, 1, sd);
    w.Op(1, Kind::ChanClose, ch, 0, cl);
  } else {
    w.Op(1, Kind::ChanClose, ch, 0, cl);
    w.Pre(g, Kind::ChanSend, ch, sd, trace::kClosed);
    w.Op(g, Kind::Panic, 0, w.AddString("send on closed channel"), sd);
  }
  return w;
}

// The send of SendRacingClose, as a finding's primary location.
report::Location SendSite() {
  report::Location l;
  l.file = "/p/main.go";
  l.line = 12;
  l.role = report::Role::Send;
  l.goroutine = "1.0";
  return l;
}

// Writes the trace it is given into the run's out_dir, or fails as told.
class FakeRunner : public ScheduleRunner {
 public:
  bool Run(const schedule::Schedule& s, const std::string& schedule_path, const RunOptions& opt,
           RunOutput* out, std::string* err) override {
    calls++;
    ran = s;
    EXPECT_TRUE(fs::exists(schedule_path)) << schedule_path;
    if (!fail.empty()) {
      *err = fail;
      return false;
    }
    *out = RunOutput();
    out->trace_dir = opt.out_dir;
    out->record.run.timed_out = timed_out;
    return replayed.Write(opt.out_dir, err) && trace::ReadTrace(opt.out_dir, &out->trace, err);
  }
  TraceWriter replayed;
  std::string fail;  // "" = succeed
  bool timed_out = false;  // the run was killed at its wall-clock limit
  int calls = 0;
  schedule::Schedule ran;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Whether the summary has exactly one note and it mentions `text`.
::testing::AssertionResult OneNoteSays(const ConfirmSummary& sum, const std::string& text) {
  if (sum.notes.size() != 1) {
    return ::testing::AssertionFailure() << sum.notes.size() << " notes, expected 1";
  }
  if (sum.notes[0].find(text) == std::string::npos) {
    return ::testing::AssertionFailure() << "the note does not say \"" << text << "\": "
                                         << sum.notes[0];
  }
  return ::testing::AssertionSuccess();
}

class ConfirmTest : public util::TempDirTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(TempDirTest::SetUp());
    std::string err;
    ASSERT_TRUE(SendRacingClose(true).Write(dir_ + "/trace", &err)) << err;
    ASSERT_TRUE(trace::ReadTrace(dir_ + "/trace", &t_, &err)) << err;
    ASSERT_TRUE(hb_.Build(t_, &err)) << err;
    opt_.schedule_dir = dir_ + "/schedules";
    opt_.work_dir = dir_ + "/work";
    opt_.fallback.mode = "run";
    opt_.fallback.args = {"./cmd/x"};
    opt_.fallback.cwd = dir_;
    opt_.runner = &runner_;
  }

  // The index in t_.records of goroutine path's first record of kind k.
  uint32_t Find(const std::string& path, Kind k) const {
    for (const auto& g : t_.goroutines) {
      if (g.stable_id != path) continue;
      for (uint32_t i = g.begin; i < g.end; i++) {
        if (t_.records[i].kind == k) return i;
      }
    }
    ADD_FAILURE() << "no such record in " << path;
    return 0;
  }
  // The predicted send-on-closed of the recorded trace.
  report::Finding Predicted() const {
    report::Finding f;
    f.kind = FindingKind::SendOnClosed;
    f.status = Status::Predicted;
    f.severity = report::Severity::Bug;
    f.records = {Find("1.0", Kind::ChanSend), Find("1", Kind::ChanClose)};
    f.locations.push_back(SendSite());
    return f;
  }
  // A script in the place of a kept binary (binary_runner.h): it writes
  // "cwd|schedule|arguments" to dir_/ran and leaves the trace of a replay
  // that hit the bug (SendRacingClose(false)) where the runtime would.
  std::string FakeBinary(const std::string& name) {
    std::string err;
    TraceWriter replayed = SendRacingClose(false);
    replayed.SetMeta("replay_schedule", "1");
    EXPECT_TRUE(replayed.Write(dir_ + "/replayed", &err)) << err;
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n"
                        << "echo \"$PWD|$GORDIAN_SCHEDULE|$*\" > " << dir_ << "/ran\n"
                        << "cp " << dir_ << "/replayed/* \"$GORDIAN_TRACE_DIR\"/\n";
    fs::permissions(path, fs::perms::owner_all);
    return path;
  }
  std::vector<report::Finding> Confirm(ConfirmSummary* sum) {
    std::vector<report::Finding> fs{Predicted()};
    ConfirmFindings(t_, dir_ + "/trace", hb_, &fs, opt_, sum);
    return fs;
  }
  // Confirm, where the one replay leaves the finding predicted (with no
  // reproduce command).
  std::vector<report::Finding> ConfirmLeavingItPredicted(ConfirmSummary* sum) {
    std::vector<report::Finding> fs = Confirm(sum);
    EXPECT_EQ(runner_.calls, 1);
    EXPECT_EQ(fs[0].status, Status::Predicted);
    EXPECT_TRUE(fs[0].reproduce.empty());
    return fs;
  }

  trace::Trace t_;
  hb::HappensBefore hb_;
  FakeRunner runner_;
  ConfirmOptions opt_;
};

TEST_F(ConfirmTest, ReplayThatHitsTheBugConfirms) {
  runner_.replayed = SendRacingClose(false);
  ConfirmSummary sum;
  std::vector<report::Finding> fs = Confirm(&sum);
  EXPECT_EQ(runner_.calls, 1);
  EXPECT_EQ(runner_.ran.cmd.mode, "run");
  EXPECT_EQ(runner_.ran.cmd.args, opt_.fallback.args) << "a main program runs as the fallback says";
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].status, Status::Confirmed);
  EXPECT_EQ(fs[0].reproduce.rfind("gordian replay " + opt_.schedule_dir + "/", 0), 0u)
      << fs[0].reproduce;
  EXPECT_TRUE(fs[0].reproduce.ends_with("-send-on-closed.sched")) << fs[0].reproduce;
  EXPECT_EQ(sum.predicted, 1u);
  EXPECT_EQ(sum.confirmed, 1u);
  EXPECT_TRUE(OneNoteSays(sum, "confirmed"));
}

TEST_F(ConfirmTest, ReplayWithoutTheBugLeavesItUnconfirmed) {
  runner_.replayed = SendRacingClose(true);
  ConfirmSummary sum;
  std::vector<report::Finding> fs = Confirm(&sum);
  EXPECT_EQ(runner_.calls, 1);
  EXPECT_EQ(fs[0].status, Status::Unconfirmed);
  EXPECT_TRUE(fs[0].reproduce.empty()) << "only a confirmed finding gets a reproduce command";
  EXPECT_EQ(sum.unconfirmed, 1u);
  EXPECT_TRUE(OneNoteSays(sum, "did not find the channel closed"));
}

// A replay killed at its time limit before the bug showed proves nothing
// either way: the finding stays predicted, counted as not replayed, and the
// note says why. The same replay run to its end without the bug refutes it
// (the test above).
TEST_F(ConfirmTest, ReplayStoppedAtItsLimitLeavesItPredicted) {
  runner_.replayed = SendRacingClose(true);
  runner_.timed_out = true;
  ConfirmSummary sum;
  std::vector<report::Finding> fs = ConfirmLeavingItPredicted(&sum);
  EXPECT_EQ(sum.unconfirmed, 0u);
  EXPECT_EQ(sum.not_rewritten, 1u);
  EXPECT_TRUE(OneNoteSays(sum, "stopped at its"));

  // Killed at the limit, but after the bug showed: confirmed all the same.
  runner_.replayed = SendRacingClose(false);
  ConfirmSummary sum2;
  fs = Confirm(&sum2);
  EXPECT_EQ(fs[0].status, Status::Confirmed);
}

// A replay that could not run says nothing about the bug: the finding
// stays predicted (not refuted and hidden) and its note says why.
TEST_F(ConfirmTest, RunnerErrorLeavesThePredictionWithANote) {
  runner_.fail = "the program no longer builds";
  ConfirmSummary sum;
  std::vector<report::Finding> fs = ConfirmLeavingItPredicted(&sum);
  EXPECT_EQ(sum.confirmed, 0u);
  EXPECT_EQ(sum.unconfirmed, 0u);
  EXPECT_TRUE(OneNoteSays(sum, "its replay failed: the program no longer builds"));
  EXPECT_EQ(fs[0].note, "its replay failed: the program no longer builds");
}

TEST_F(ConfirmTest, SpentBudgetIsNotReplayed) {
  opt_.per_test_seconds = 0.5;
  ConfirmSummary sum;
  std::vector<report::Finding> fs = Confirm(&sum);
  EXPECT_EQ(runner_.calls, 0);
  EXPECT_EQ(fs[0].status, Status::Predicted);
  EXPECT_EQ(sum.not_rewritten, 1u);
  EXPECT_TRUE(OneNoteSays(sum, "replay budget of the program ran out"));
  EXPECT_NE(fs[0].note.find("raise it with --confirm-budget"), std::string::npos) << fs[0].note;
}

// With the -wall deadline near (less than its reserve for the analysis and
// the report left), no replay starts: the command must end with a report.
TEST_F(ConfirmTest, NoReplayWhenTheWallLimitIsNear) {
  driver::ArmDeadline(3, "unexpected: the deadline passed in a test");
  ConfirmSummary sum;
  std::vector<report::Finding> fs = Confirm(&sum);
  driver::DisarmDeadline();
  EXPECT_EQ(runner_.calls, 0);
  EXPECT_EQ(fs[0].status, Status::Predicted);
  EXPECT_TRUE(OneNoteSays(sum, "the -wall limit was near"));
  EXPECT_EQ(fs[0].note, "the -wall limit was near (raise -wall)");
}

// The occurred send-on-closed of a recorded run gets a reproduce command
// when the replay of the recorded schedule hits it again, and none when it
// does not.
TEST_F(ConfirmTest, ReproduceOccurredNeedsTheReplayToHitTheBug) {
  for (bool hit : {true, false}) {
    SCOPED_TRACE(hit ? "hit" : "missed");
    runner_.replayed = SendRacingClose(!hit);
    runner_.calls = 0;
    report::Finding f;
    f.kind = FindingKind::SendOnClosed;
    f.status = Status::Occurred;
    f.severity = report::Severity::Bug;
    f.locations.push_back(SendSite());
    std::vector<report::Finding> fs{f};
    ConfirmSummary sum;
    ReproduceOccurred(t_, dir_ + "/trace", &fs, opt_, &sum);
    EXPECT_EQ(runner_.calls, 1);
    EXPECT_EQ(sum.occurred, 1u);
    EXPECT_EQ(sum.reproduced, hit ? 1u : 0u);
    EXPECT_EQ(fs[0].status, Status::Occurred);
    if (hit) {
      EXPECT_EQ(fs[0].reproduce, "gordian replay " + opt_.schedule_dir + "/trace-recorded.sched");
    } else {
      EXPECT_TRUE(fs[0].reproduce.empty()) << fs[0].reproduce;
    }
  }
}

// A test recording whose test binary was kept (ConfirmOptions::
// recorded_binary): its replays run that binary, in the package directory,
// under the schedule, and no go test. The "binary" here is a script that
// notes how it was run and leaves the trace a replay with the bug would.
TEST_F(ConfirmTest, TheRecordedTestBinaryRunsTheReplays) {
  std::string err;
  // The recording as a package's test trace: the binary's name and the
  // package directory (packages.txt beside the trace), as the exec wrapper
  // leaves them.
  TraceWriter recorded = SendRacingClose(true);
  recorded.SetMeta("arg.0", "/tmp/go-build1/b001/p.test");
  recorded.SetMeta("argc", "2");
  recorded.SetMeta("arg.1", "-test.run=^TestSend$");
  fs::remove_all(dir_ + "/trace");
  ASSERT_TRUE(recorded.Write(dir_ + "/trace", &err)) << err;
  trace::Trace t;  // t_'s records (Predicted() indexes them), with the meta
  ASSERT_TRUE(trace::ReadTrace(dir_ + "/trace", &t, &err)) << err;
  hb::HappensBefore hb;
  ASSERT_TRUE(hb.Build(t, &err)) << err;
  std::string pkg = dir_ + "/pkg";
  fs::create_directories(pkg);
  std::ofstream(dir_ + "/packages.txt") << "trace\texample.com/p\t" << pkg << "\n";
  std::string binary = FakeBinary("p.test");
  opt_.runner = nullptr;
  opt_.recorded_binary.path = binary;
  opt_.recorded_binary.package_dir = pkg;
  opt_.recorded_binary.import_path = "example.com/p";
  std::vector<report::Finding> fs{Predicted()};
  ASSERT_TRUE(ConfirmTrace("gordian test", t, hb, dir_ + "/trace", &fs, opt_));
  EXPECT_EQ(fs[0].status, Status::Confirmed) << Slurp(dir_ + "/ran");
  std::string ran = Slurp(dir_ + "/ran");
  std::string sched = fs[0].reproduce.substr(std::string("gordian replay ").size());
  EXPECT_EQ(ran, pkg + "|" + sched + "|-test.paniconexit0 -test.run=^TestSend$\n");
}

// A run recording whose program was kept (ConfirmOptions::
// recorded_program): a schedule of the same invocation runs that program,
// in its directory, with its own arguments, and no go build; a schedule of
// another invocation goes to the go command instead.
TEST_F(ConfirmTest, TheRecordedProgramRunsTheReplaysOfItsInvocation) {
  std::string prog = FakeBinary("prog");
  std::string cwd = dir_ + "/cmd";
  fs::create_directories(cwd);
  opt_.runner = nullptr;
  opt_.recorded_program.path = prog;
  opt_.recorded_program.cwd = cwd;
  opt_.recorded_program.record_cwd = opt_.fallback.cwd;
  opt_.recorded_program.record_args = opt_.fallback.args;
  opt_.recorded_program.program_args = {"-n", "3"};
  for (bool same : {true, false}) {
    SCOPED_TRACE(same ? "its invocation" : "another invocation");
    fs::remove(dir_ + "/ran");
    if (!same) opt_.fallback.args = {"./cmd/other"};  // the schedule's, not the program's
    std::vector<report::Finding> fs{Predicted()};
    ASSERT_TRUE(ConfirmTrace("gordian run", t_, hb_, dir_ + "/trace", &fs, opt_));
    if (!same) {
      EXPECT_FALSE(fs::exists(dir_ + "/ran"));
      EXPECT_NE(fs[0].status, Status::Confirmed);
      continue;
    }
    EXPECT_EQ(fs[0].status, Status::Confirmed) << Slurp(dir_ + "/ran");
    std::string sched = fs[0].reproduce.substr(std::string("gordian replay ").size());
    EXPECT_EQ(Slurp(dir_ + "/ran"), cwd + "|" + sched + "|-n 3\n");
  }
}

}  // namespace
}  // namespace gordian::pipeline
