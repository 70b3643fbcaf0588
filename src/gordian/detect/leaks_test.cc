// Tests of the goroutine-leak detector (leaks.cc) for what the runtime
// claims about timers and program exit: a goroutine waiting on a live timer
// or context deadline is not blocked forever (kTimer, kExitChecked,
// BlockedAtTestEnd with val 0 at exit), and a stopped timer's channel is
// never described as one nobody sends on.
#include <gtest/gtest.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/trace_builder_test.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using testing::TraceBuilder;
using trace::Kind;

std::vector<Finding> Leaks(const trace::Trace& t) {
  std::vector<Finding> out;
  for (const Finding& f : DetectOccurred(t)) {
    if (f.kind == FindingKind::GoroutineLeak) out.push_back(f);
  }
  return out;
}

// main spawns a goroutine that waits on a ticker's channel (kTimer) and
// one that waits on a plain channel; main returns. exit_checked says
// whether the runtime checked the goroutines at exit; the other two which
// of them it found blocked forever then.
trace::Trace TwoWaiters(bool exit_checked, bool ticker_blocked, bool plain_blocked) {
  TraceBuilder b;
  uint32_t sp = b.Site("main.go", 5), tick = b.Site("main.go", 8), rv = b.Site("main.go", 12);
  uint32_t janitor = b.Go(1, sp);
  uint32_t waiter = b.Go(1, sp);
  b.Begin(janitor, Kind::ChanRecv, tick, 1, 0, trace::kTimer);
  b.Begin(waiter, Kind::ChanRecv, rv, 2);
  if (ticker_blocked) b.Op(1, Kind::BlockedAtTestEnd, tick, janitor, 0, 0, uint16_t(Kind::ChanRecv));
  if (plain_blocked) b.Op(1, Kind::BlockedAtTestEnd, rv, waiter, 0, 0, uint16_t(Kind::ChanRecv));
  b.Op(1, Kind::ProgramExit, 0, 0, 0, exit_checked ? trace::kExitChecked : 0);
  return b.Build();
}

TEST(LeakClaims, UncheckedExitDoesNotClaimATimerWaiter) {
  auto leaks = Leaks(TwoWaiters(false, false, false));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].locations[0].line, 12u);
  EXPECT_NE(leaks[0].message.find("no other goroutine sends on it"), std::string::npos)
      << leaks[0].message;
}

TEST(LeakClaims, CheckedExitReportsOnlyWhatTheRuntimeFoundBlockedForever) {
  // The plain waiter was waiting on something alive (say a context
  // deadline) at exit: the runtime did not name it.
  auto leaks = Leaks(TwoWaiters(true, false, false));
  EXPECT_TRUE(leaks.empty());
  leaks = Leaks(TwoWaiters(true, false, true));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].locations[0].line, 12u);
  EXPECT_NE(leaks[0].message.find("when the program ended"), std::string::npos)
      << leaks[0].message;
}

TEST(LeakClaims, AStoppedTimersChannelIsNotOneNobodySendsOn) {
  auto leaks = Leaks(TwoWaiters(true, true, false));
  ASSERT_EQ(leaks.size(), 1u);
  const std::string& m = leaks[0].message;
  EXPECT_EQ(leaks[0].locations[0].line, 8u);
  EXPECT_EQ(m.find("no other goroutine sends"), std::string::npos) << m;
  EXPECT_NE(m.find("timer was stopped"), std::string::npos) << m;
}

// A janitor in a select on a timer channel and a plain channel, when its
// test ends; named says whether the runtime found it blocked forever then.
trace::Trace Janitor(bool named) {
  TraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), sp = b.Site("j_test.go", 10),
           sel = b.Site("j_test.go", 12);
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 1, b.Str("TestJanitor"));
  uint32_t g = b.Go(tg, sp);
  b.Begin(g, Kind::Select, sel, 0, 0, 0, 2);
  b.Begin(g, Kind::SelectCase, sel, 3, 0, trace::kDirRecv | trace::kTimer, 0);
  b.Begin(g, Kind::SelectCase, sel, 4, 0, trace::kDirRecv, 1);
  if (named) b.Op(tg, Kind::BlockedAtTestEnd, sel, g, 1, 0, uint16_t(Kind::Select));
  b.Op(tg, Kind::TestEnd, q, 1);
  b.Op(1, Kind::ProgramExit, 0, 0, 0);  // unchecked (an older trace, or killed)
  return b.Build();
}

TEST(LeakClaims, SelectWithATimerCaseAtATestEnd) {
  // Not named at its test end, exit unchecked: its ticker may be live.
  EXPECT_TRUE(Leaks(Janitor(false)).empty());
  // Named at the test end: the ticker was stopped.
  auto leaks = Leaks(Janitor(true));
  ASSERT_EQ(leaks.size(), 1u);
  EXPECT_EQ(leaks[0].test, "TestJanitor");
  EXPECT_NE(leaks[0].message.find("for its timer channel"), std::string::npos)
      << leaks[0].message;
}

}  // namespace
}  // namespace gordian::detect
