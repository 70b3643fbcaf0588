// Runs under schedules (label "replay": needs Go). Enforcement:
// hand-written schedules for the programs in testdata/, run by
// GoScheduleRunner, force what the recording would not decide
// (which Once.Do runs f, a panic after the operations before it). Fidelity
// on the whole corpus: records
// every program of tests/corpus and examples/ once, GOMAXPROCS rotating
// through 1, 2, 4 from one program to the next, replays each trace with
// `gordian replay`, and requires every replay of a program that is not a
// known limit of replay (scripts/replay-fidelity, docs/schedule-format.md)
// to match its recording exactly. The full run (each program under every
// GOMAXPROCS) is `scripts/replay-fidelity` by hand.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "gordian/driver/process.h"
#include "gordian/pipeline/schedule_runner.h"
#include "gordian/pipeline/shell_test.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/dump.h"

namespace {

namespace fs = std::filesystem;
using gordian::trace::Kind;
using gordian::trace::Record;

using gordian::pipeline::testing::Shell;

TEST(ReplayFidelity, WholeCorpusRotatingGomaxprocs) {
  const char* src = getenv("GORDIAN_SOURCE_DIR");
  const char* bin = getenv("GORDIAN_BINARY_DIR");
  ASSERT_TRUE(src && bin);
  std::string s(src);
  // The programs the script replays by default: the directories with Go
  // files (examples/ci holds CI files).
  size_t programs = 0;
  for (const char* dir : {"tests/corpus/bugs", "tests/corpus/correct", "examples"}) {
    for (const auto& e : fs::directory_iterator(fs::path(s) / dir)) {
      if (!e.is_directory()) continue;
      for (const auto& f : fs::directory_iterator(e.path())) {
        if (f.path().extension() == ".go") {
          programs++;
          break;
        }
      }
    }
  }
  ASSERT_GT(programs, 50u);
  int status = -1;
  std::string out = Shell(s + "/scripts/replay-fidelity --rotate --check " + bin +
                              "/bin/gordian 2>&1",
                          &status);
  // The figures, for the log (ctest --output-on-failure, or -V).
  std::printf("%s", out.c_str());
  std::smatch m;
  std::regex total(R"(fidelity: (\d+)/(\d+) replays exact)");
  ASSERT_TRUE(std::regex_search(out, m, total)) << out;
  EXPECT_EQ(std::stoul(m[2]), programs) << "every program is recorded and replayed once\n" << out;
  std::regex free(R"(race-free programs: (\d+)/(\d+) replays exact \((.*)\))");
  ASSERT_TRUE(std::regex_search(out, m, free)) << out;
  EXPECT_EQ(m[1], m[2]) << "every replay of a program without a known limit matches its "
                           "recording\n" << out;
  EXPECT_EQ(m[3], "100%") << out;
  EXPECT_EQ(status, 0) << out;
}

// Runs the test package testdata/<pkg> under the schedule text (its
// goroutines and operations; the invocation is added here) and reads the
// replayed trace.
class ReplayEnforcement : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gordian::driver::LookPath("go").empty()) {
      std::string path = getenv("PATH") ? getenv("PATH") : "";
      setenv("PATH", ("/usr/local/go/bin:" + path).c_str(), 1);
    }
    if (gordian::driver::LookPath("go").empty()) GTEST_SKIP() << "no go command in PATH";
    std::string tmpl = (fs::temp_directory_path() / "gordian-replay-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // run: go test's -run pattern (empty: every test of the package). mode:
  // "test", or "run" for a package main (go run .).
  bool Replay(const std::string& pkg, const std::string& body,
              gordian::pipeline::ScheduledRun* res, const std::string& run = "",
              int stall_ms = 1000, const std::string& mode = "test") {
    const char* src = getenv("GORDIAN_SOURCE_DIR");
    EXPECT_NE(src, nullptr);
    if (src == nullptr) return false;
    std::string text = "gordian-schedule 1\ncmd.mode " + mode + "\ncmd.cwd " + std::string(src) +
                       "/src/gordian/pipeline/testdata/" + pkg + "\n" +
                       (run.empty() ? "" : "cmd.arg -run=" + run + "\n") + "cmd.arg .\n" + body;
    gordian::schedule::Schedule s;
    std::string err;
    EXPECT_TRUE(gordian::schedule::ParseSchedule(text, &s, &err)) << err;
    std::string path = dir_ + "/schedule";
    EXPECT_TRUE(gordian::schedule::WriteSchedule(path, s, &err)) << err;
    gordian::pipeline::RunOptions ro;
    ro.out_dir = dir_ + "/replay";
    ro.pass_through = false;
    ro.self_exe = std::string(getenv("GORDIAN_BINARY_DIR")) + "/bin/gordian";
    ro.wall_seconds = 60;
    ro.stall_ms = stall_ms;
    gordian::pipeline::GoScheduleRunner runner;
    bool ok = gordian::pipeline::RunSchedule(runner, s, path, ro, res, &err);
    EXPECT_TRUE(ok) << err;
    return ok;
  }
  // Replays pkg's test (run: -run, "" all) under the schedule "1.0.0
  // sends, then 1.0 receives" with the stall time stall_ms, and expects it
  // followed exactly without a stall declared.
  void ExpectSendThenReceiveWithoutStall(const std::string& pkg, const std::string& run,
                                         int stall_ms) {
    ExpectFollowedWithoutStall(pkg,
                               "g 1\ng 1.0\ng 1.0.0\n"
                               "o 2 5 - send 1 1 0 0 0 ?\n"
                               "o 1 6 - recv 1 1 0 0 0 ?\n",
                               run, stall_ms, "test");
  }
  // Replays pkg (mode "test" or "run") under the schedule body with the
  // stall time stall_ms, and expects it followed exactly without a stall
  // declared.
  void ExpectFollowedWithoutStall(const std::string& pkg, const std::string& body,
                                  const std::string& run, int stall_ms, const std::string& mode) {
    gordian::pipeline::ScheduledRun res;
    ASSERT_TRUE(Replay(pkg, body, &res, run, stall_ms, mode));
    EXPECT_EQ(res.trace.meta.count("replay_stall_pos"), 0u) << "a stall was declared";
    EXPECT_EQ(res.follow.status, "complete");
    EXPECT_TRUE(res.follow.exact) << res.follow.divergence;
  }
  // The records of kind k of goroutine path in the replayed trace.
  static std::vector<Record> Of(const gordian::trace::Trace& t, const std::string& path, Kind k) {
    std::vector<Record> out;
    for (const auto& g : t.goroutines) {
      if (g.stable_id != path) continue;
      for (const Record& r : t.RecordsOf(g)) {
        if (r.kind == k) out.push_back(r);
      }
    }
    return out;
  }
  // The one record of kind k of goroutine path (a failure, and an empty
  // record, when there is not exactly one).
  static Record One(const gordian::trace::Trace& t, const std::string& path, Kind k) {
    std::vector<Record> v = Of(t, path, k);
    EXPECT_EQ(v.size(), 1u) << path << " " << gordian::trace::KindName(k);
    return v.size() == 1 ? v[0] : Record{};
  }
  std::string dir_;
};

// testdata/once: 1.0 adds 2, spawns 1.0.0 and 1.0.1, which each call Do
// and then Done; 1.0 waits. 1.0.0's Do comes first, but the schedule says
// that 1.0.1's runs f (CHOICE 1), then the other way round.
TEST_F(ReplayEnforcement, ScheduleChoosesTheOnceDoThatRunsF) {
  for (int runner : {1, 0}) {
    std::string first = runner == 0 ? "1" : "0", second = runner == 1 ? "1" : "0";
    std::string body =
        "g 1\ng 1.0\ng 1.0.0\ng 1.0.1\n"
        "o 1 19 - add 1 2 0 0 0 ?\n"
        "o 2 21 " + first + " once 2 0 0 " + (runner == 0 ? "2" : "0") + " 0 ?\n"
        "o 3 21 " + second + " once 2 0 0 " + (runner == 1 ? "2" : "0") + " 0 ?\n"
        "o 2 19 - add 1 4294967295 1 0 0 ?\n"
        "o 3 19 - add 1 4294967295 1 0 0 ?\n"
        "o 1 20 - wait 1 0 1 0 0 ?\n";
    gordian::pipeline::ScheduledRun res;
    ASSERT_TRUE(Replay("once", body, &res));
    Record a = One(res.trace, "1.0.0", Kind::OnceDo);
    Record b = One(res.trace, "1.0.1", Kind::OnceDo);
    EXPECT_EQ((a.flags & gordian::trace::kSuccess) != 0, runner == 0) << "runner " << runner;
    EXPECT_EQ((b.flags & gordian::trace::kSuccess) != 0, runner == 1) << "runner " << runner;
    EXPECT_EQ(res.follow.status, "complete");
    EXPECT_TRUE(res.follow.exact) << res.follow.divergence;
  }
}

// testdata/panicgate: 1.0.0 panics at once; 1.0 sleeps 50 ms, then sends
// and receives on a buffered channel. The p line puts the panic after both.
TEST_F(ReplayEnforcement, APanicWaitsForTheOperationsBeforeIt) {
  std::string body =
      "g 1\ng 1.0\ng 1.0.0\n"
      "p 2 0 2\n"
      "o 1 5 - send 1 1 0 0 0 ?\n"
      "o 1 6 - recv 1 1 1 0 0 ?\n";
  gordian::pipeline::ScheduledRun res;
  ASSERT_TRUE(Replay("panicgate", body, &res));
  Record send = One(res.trace, "1.0", Kind::ChanSend);
  Record recv = One(res.trace, "1.0", Kind::ChanRecv);
  Record panic = One(res.trace, "1.0.0", Kind::Panic);
  EXPECT_NE(send.tpost, 0u);
  EXPECT_NE(recv.tpost, 0u);
  EXPECT_GT(panic.tpre, recv.tpost) << "the panic came after the receive";
  EXPECT_TRUE(res.follow.exact) << res.follow.divergence;
}

// testdata/sleeper: 1.0.0 sleeps 100 ms, then sends; 1.0 receives. With a
// stall time of 20 ms the cursor waits for 1.0.0's send (position 0) longer
// than that, but 1.0.0 is asleep in time.Sleep: it is coming, so this is no
// stall and the send is not skipped. (A corpus program that sleeps 200 ms
// before its scheduled Unlock lost the Unlock to the 1 s stall time when
// CI's load descheduled it.)
TEST_F(ReplayEnforcement, AGoroutineAsleepIsNoStall) {
  ExpectSendThenReceiveWithoutStall("sleeper", "", 20);
}

// testdata/mainsleeper, a program: its main goroutine sleeps 100 ms, then
// sends; a goroutine it spawned receives. As for any goroutine asleep in
// time.Sleep, the cursor waiting for main's send is no stall. (The replay
// never knew which goroutine was main, schedule goroutine 1: runtime.main
// is made before any goroutine that could be its parent, so it was never
// bound, and its sleep was taken for a stall.)
TEST_F(ReplayEnforcement, TheMainGoroutineAsleepIsNoStall) {
  ExpectFollowedWithoutStall("mainsleeper",
                             "g 1\ng 1.0\n"
                             "o 0 5 - send 1 1 0 0 0 ?\n"
                             "o 1 6 - recv 1 1 0 0 0 ?\n",
                             "", 20, "run");
}

// testdata/busyhead, TestCrunchThenSend: 1.0.0 computes for 50 ms, then
// sends; 1.0 receives. With a stall time of 30 ms the cursor waits for the
// send longer than one window, but 1.0.0 is running the whole time: on its
// way to the send (or waiting for a CPU, on a loaded machine), so it gets
// several windows and the send is not skipped.
TEST_F(ReplayEnforcement, ARunningGoroutineGetsMoreThanOneStallWindow) {
  ExpectSendThenReceiveWithoutStall("busyhead", "TestCrunchThenSend$", 30);
}

// testdata/busyhead, TestSpinUntilFlag: 1.0.0 spins until 1.0 sets a flag
// after its Lock; the schedule puts 1.0.0's send before that Lock. The
// spinner runs the whole time, yet it never comes: after its windows the
// send is skipped, the replay goes on (every scheduled operation happens,
// the send after the Lock) and the skip is reported.
TEST_F(ReplayEnforcement, AGoroutineThatSpinsForeverIsStillSkipped) {
  std::string body =
      "g 1\ng 1.0\ng 1.0.0\n"
      "o 2 5 - send 1 1 0 0 0 ?\n"
      "o 1 10 - lock 2 0 0 0 0 ?\n"
      "o 1 11 - unlock 2 0 1 0 0 ?\n"
      "o 1 6 - recv 1 1 2 0 0 ?\n";
  gordian::pipeline::ScheduledRun res;
  ASSERT_TRUE(Replay("busyhead", body, &res, "TestSpinUntilFlag$", 20));
  EXPECT_EQ(res.trace.meta["replay_stall_pos"], "0");
  EXPECT_EQ(res.trace.meta["replay_stall_goroutine"], "1.0.0");
  EXPECT_TRUE(res.follow.complete) << res.follow.divergence;
}

// The first record of kind k in t (any goroutine), or nullptr.
const Record* FirstOf(const gordian::trace::Trace& t, Kind k) {
  for (const Record& r : t.records) {
    if (r.kind == k) return &r;
  }
  return nullptr;
}

// testdata/prefer: one receive case is ready at once, the other 20 ms
// later. A free run takes the ready one; "prefer" for the other makes the
// select wait for it. (Cases are numbered as the runtime orders them:
// sends, then receives in reverse source order.)
TEST_F(ReplayEnforcement, APreferLineMakesTheSelectWaitForItsCase) {
  gordian::pipeline::ScheduledRun free;
  ASSERT_TRUE(Replay("prefer", "", &free));
  const Record* sel = FirstOf(free.trace, Kind::Select);
  ASSERT_NE(sel, nullptr);
  ASSERT_LE(sel->val, 1u) << "a free run takes a case";
  uint32_t ready = sel->val, later = 1 - ready;
  std::string site = gordian::trace::SiteText(free.trace, *sel);
  gordian::pipeline::ScheduledRun res;
  ASSERT_TRUE(Replay("prefer", fmt::format("prefer {} 5000 {}\n", later, site), &res));
  sel = FirstOf(res.trace, Kind::Select);
  ASSERT_NE(sel, nullptr);
  EXPECT_EQ(sel->val, later) << "the preferred case, once it is ready";
  EXPECT_EQ(res.trace.meta["fuzz_prefer_taken_case"], std::to_string(later));
  // A preference for another site changes nothing.
  ASSERT_TRUE(Replay("prefer", fmt::format("prefer {} 5000 {}0\n", later, site), &res));
  sel = FirstOf(res.trace, Kind::Select);
  ASSERT_NE(sel, nullptr);
  EXPECT_EQ(sel->val, ready);
  EXPECT_EQ(res.trace.meta.count("fuzz_prefer_taken"), 0u);
}

// testdata/delay: main locks right after spawning a goroutine that locks
// too. "delay 1" on main's Lock holds it until the goroutine has locked,
// unlocked and parked in its send; the hold ends then, long before its
// bound of 20 s.
TEST_F(ReplayEnforcement, ADelayLineHoldsTheOperation) {
  gordian::pipeline::ScheduledRun free;
  ASSERT_TRUE(Replay("delay", "", &free));
  std::string main_site;
  for (const Record& r : free.trace.records) {
    std::string s = gordian::trace::SiteText(free.trace, r);
    if (r.kind == Kind::MutexLock && s.ends_with("delay_test.go:20")) main_site = s;
  }
  ASSERT_FALSE(main_site.empty());
  gordian::pipeline::ScheduledRun res;
  ASSERT_TRUE(Replay("delay", "delay 1 20000 " + main_site + "\n", &res));
  uint32_t main_lock = 0, other_lock = 0;
  for (const Record& r : res.trace.records) {
    if (r.kind != Kind::MutexLock) continue;
    (gordian::trace::SiteText(res.trace, r) == main_site ? main_lock : other_lock) = r.tpost;
  }
  ASSERT_NE(main_lock, 0u);
  ASSERT_NE(other_lock, 0u);
  EXPECT_LT(other_lock, main_lock) << "the goroutine locked first";
  ASSERT_EQ(res.trace.meta.count("fuzz_delay_ms"), 1u);
  EXPECT_LT(std::stoi(res.trace.meta["fuzz_delay_ms"]), 10000) << "the hold ended when the others blocked";
}

// testdata/delayunlock: the test goroutine holds a lock and unlocks it
// while a goroutine it spawned unlocks it too. A delay line on the test's
// unlock holds it until the goroutine has unlocked: the test's unlock is
// then the fatal one, and its record must say so (kFailed). The recorder
// decides the flag by reading the lock's state: read before the hold, it
// found the lock still held, and the fatal unlock was recorded as a plain
// one (no occurred unlock-of-unlocked, only a test failure).
TEST_F(ReplayEnforcement, ADelayedUnlockThatFailsIsFlagged) {
  struct Case {
    const char* test;
    Kind kind;
    int line;  // the test goroutine's unlock in unlock_test.go
  };
  for (const Case& c : {Case{"TestMutex", Kind::MutexUnlock, 23},
                        Case{"TestRWMutexWrite", Kind::RWUnlock, 35},
                        Case{"TestRWMutexRead", Kind::RUnlock, 47}}) {
    SCOPED_TRACE(c.test);
    std::string run = c.test;  // go test -run; no test name is a prefix of another
    gordian::pipeline::ScheduledRun free;
    ASSERT_TRUE(Replay("delayunlock", "", &free, run));
    std::string site;
    std::string suffix = fmt::format("unlock_test.go:{}", c.line);
    for (const Record& r : free.trace.records) {
      std::string s = gordian::trace::SiteText(free.trace, r);
      if (r.kind == c.kind && s.ends_with(suffix)) site = s;
    }
    ASSERT_FALSE(site.empty()) << "the free run reached the test's unlock\n"
                               << free.record.run.out << free.record.run.err;
    gordian::pipeline::ScheduledRun res;
    ASSERT_TRUE(Replay("delayunlock", "delay 1 20000 " + site + "\n", &res, run));
    ASSERT_EQ(res.trace.meta.count("fuzz_delay_ms"), 1u) << "the delay line held the unlock";
    const Record* held = nullptr;
    const Record* other = nullptr;
    for (const Record& r : res.trace.records) {
      if (r.kind != c.kind) continue;
      (gordian::trace::SiteText(res.trace, r) == site ? held : other) = &r;
    }
    ASSERT_NE(held, nullptr);
    ASSERT_NE(other, nullptr);
    EXPECT_LT(other->tpre, held->tpre) << "the goroutine unlocked first";
    EXPECT_EQ(other->flags & gordian::trace::kFailed, 0) << "the goroutine's unlock succeeded";
    EXPECT_EQ(held->flags & gordian::trace::kFailed, gordian::trace::kFailed)
        << "the held unlock, which found the lock unlocked, is flagged as the fatal one";
    bool reported = false;  // the occurred detectors' finding, at the held unlock
    for (const gordian::report::Finding& f : res.occurred) {
      reported |= f.kind == gordian::report::FindingKind::UnlockOfUnlocked &&
                  !f.locations.empty() && f.locations[0].line == static_cast<uint32_t>(c.line);
    }
    EXPECT_TRUE(reported) << "an occurred unlock-of-unlocked at unlock_test.go:" << c.line;
  }
}

}  // namespace
