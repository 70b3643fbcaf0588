// End-to-end tests of the recorder's "blocked forever" claim and its settle
// wait (runtime/std/runtime/gordian_settle.go): goroutines waiting on a
// live ticker, a far timer or a context deadline are not named in
// BlockedAtTestEnd; goroutines on a stopped timer are; a goroutine that
// blocks forever shortly after its test returns (a late leak) is named; the
// same claims are made at program exit; and the settle wait does not cost
// its bound when the goroutines wait on something alive.
#include <chrono>
#include <set>

#include "gordian/instrument/go_test_util.h"
#include "gordian/trace/trace.h"

namespace gordian::instrument::gotest {
namespace {

using trace::Kind;
using trace::Record;
using trace::Trace;

// The BlockedAtTestEnd records of a run, by test name ("" = program exit).
struct EndClaims {
  std::map<std::string, std::vector<Record>> by_test;
  const Record* exit = nullptr;
};

EndClaims ClaimsOf(const Trace& t) {
  EndClaims c;
  std::map<uint32_t, std::string> name;  // test index -> name
  for (const Record& r : t.records) {
    if (r.kind == Kind::TestStart) name[r.obj] = t.strings.at(r.val);
  }
  for (const Record& r : t.records) {
    if (r.kind == Kind::TestStart) c.by_test[t.strings.at(r.val)];
    if (r.kind == Kind::BlockedAtTestEnd) c.by_test[r.val == 0 ? "" : name[r.val]].push_back(r);
    if (r.kind == Kind::ProgramExit) c.exit = &r;
  }
  return c;
}

class SettleTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!Env::Get().ok()) GTEST_SKIP() << Env::Get().error();
  }
  fs::path Dir(const std::string& name) { return Env::Get().work() / "traces" / name; }
};

// Runs the timerleak tests (runtime/testdata/record/timerleak) with a long
// settle bound and checks each test's claims (see the program's comment).
void CheckTimerLeak(const fs::path& trace_dir, const std::string& env) {
  fs::path bin = Env::Get().work() / "bin" / "timerleak.test";
  if (!fs::exists(bin)) {
    ASSERT_EQ(Env::Get().BuildTest(TestdataDir() + "/timerleak", bin, true), "");
  }
  auto start = std::chrono::steady_clock::now();
  RunResult r = RunProgram(bin, "-test.v", trace_dir, "GORDIAN_SETTLE=10s " + env);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  // Nine tests: waiting out the bound at even one test end would take 10 s.
  EXPECT_LT(secs, 8.0) << "the settle wait ran to its bound";

  Trace t;
  std::string err;
  ASSERT_TRUE(trace::ReadTrace(trace_dir.string(), &t, &err)) << err;
  EndClaims c = ClaimsOf(t);
  ASSERT_EQ(c.by_test.size(), 10u);  // nine tests and the exit
  std::set<uint32_t> leaked;
  for (const auto& [test, recs] : c.by_test) {
    if (test.empty()) continue;
    if (test.find("Leak") == std::string::npos) {
      EXPECT_TRUE(recs.empty()) << test << " has a goroutine claimed blocked forever";
      continue;
    }
    ASSERT_EQ(recs.size(), 1u) << test;
    Kind want = test.ends_with("Send")   ? Kind::ChanSend
                : test.ends_with("Recv") ? Kind::ChanRecv
                                         : Kind::Select;
    EXPECT_EQ(recs[0].aux, static_cast<uint16_t>(want)) << test;
    leaked.insert(recs[0].obj);
  }
  EXPECT_EQ(leaked.size(), 4u);
  // At exit, the same goroutines, no others; the exit says it checked.
  ASSERT_NE(c.exit, nullptr);
  EXPECT_TRUE(c.exit->flags & trace::kExitChecked);
  std::set<uint32_t> at_exit;
  for (const Record& rec : c.by_test[""]) at_exit.insert(rec.obj);
  EXPECT_EQ(at_exit, leaked);
  // Receives from timer and context channels carry kTimer; others do not.
  size_t timer_ops = 0, plain_recvs = 0;
  for (const Record& rec : t.records) {
    bool recv = rec.kind == Kind::ChanRecv ||
                (rec.kind == Kind::SelectCase && (rec.flags & trace::kDirRecv));
    if (!recv) continue;
    if (rec.flags & trace::kTimer) {
      timer_ops++;
    } else {
      plain_recvs++;
    }
  }
  EXPECT_GE(timer_ops, 8u);
  EXPECT_GE(plain_recvs, 2u);  // the stop channels
}

TEST_F(SettleTest, TimersAreAliveStoppedTimersLeakLateLeaksAreSeen) {
  CheckTimerLeak(Dir("timerleak"), "");
}

// Go before 1.23 (and go.mod "go 1.22" modules) fed timer channels from the
// timer heap: the same claims hold.
TEST_F(SettleTest, AsyncTimerChannels) {
  CheckTimerLeak(Dir("timerleak-async"), "GODEBUG=asynctimerchan=1");
}

// GORDIAN_SETTLE=0: no waiting; the late leaks are still asleep, so they are
// not claimed, and nothing else changes.
TEST_F(SettleTest, SettleZeroDoesNotWait) {
  fs::path bin = Env::Get().work() / "bin" / "timerleak.test";
  if (!fs::exists(bin)) {
    ASSERT_EQ(Env::Get().BuildTest(TestdataDir() + "/timerleak", bin, true), "");
  }
  RunResult r = RunProgram(bin, "-test.run=LateSleep", Dir("settle0"), "GORDIAN_SETTLE=0");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  Trace t;
  std::string err;
  ASSERT_TRUE(trace::ReadTrace(Dir("settle0").string(), &t, &err)) << err;
  EXPECT_EQ(CountKind(t, Kind::BlockedAtTestEnd), 0u);
}

// Builds runtime/testdata/record/<name>.go with the hooks (once).
fs::path HookedMain(const std::string& name) {
  fs::path bin = Env::Get().work() / "bin" / (name + ".hook");
  if (!fs::exists(bin)) {
    EXPECT_EQ(Env::Get().Build(TestdataDir() + "/" + name + ".go", bin, true), "");
  }
  return bin;
}

// main returns at once: the exit check settles, then names the goroutine on
// the stopped timer and the late leaker, not the ticker janitor nor the
// context waiter.
TEST_F(SettleTest, MainReturnedExitCheck) {
  RunResult r = RunProgram(HookedMain("exitsettle"), "", Dir("exitsettle"), "GORDIAN_SETTLE=10s");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "main done\n");
  Trace t;
  std::string err;
  ASSERT_TRUE(trace::ReadTrace(Dir("exitsettle").string(), &t, &err)) << err;
  EndClaims c = ClaimsOf(t);
  ASSERT_NE(c.exit, nullptr);
  EXPECT_EQ(c.exit->aux, static_cast<uint16_t>(trace::ExitHow::MainReturned));
  EXPECT_TRUE(c.exit->flags & trace::kExitChecked);
  std::multiset<uint16_t> kinds;
  for (const Record& rec : c.by_test[""]) kinds.insert(rec.aux);
  EXPECT_EQ(kinds, (std::multiset<uint16_t>{static_cast<uint16_t>(Kind::ChanSend),
                                             static_cast<uint16_t>(Kind::ChanRecv)}));
}

// A stopped timer sends nothing: main waiting on its channel, with the
// only other goroutine blocked too, is a global deadlock.
TEST_F(SettleTest, StoppedTimerIsNoSenderForTheWatchdog) {
  RunResult r =
      RunProgram(HookedMain("stoppedtimer"), "", Dir("stoppedtimer"), "GORDIAN_DEADLOCK_MS=300", 30);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("gordian: global deadlock: all 2 goroutines are blocked"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace gordian::instrument::gotest
