// Tests of the command's deadline (deadline.h): it ends a busy gordian
// that checks for nothing (an analysis) with status 2 and its message, and
// while a child runs it bounds the child (RunProcess) and ends gordian as
// soon as the child is gone.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "gordian/driver/deadline.h"
#include "gordian/driver/process.h"

namespace gordian::driver {
namespace {

using Clock = std::chrono::steady_clock;

void Spin(double seconds) {
  auto until = Clock::now() + std::chrono::duration<double>(seconds);
  volatile unsigned long x = 0;
  while (Clock::now() < until) x = x + 1;
}

TEST(Deadline, EndsABusyProcessWithItsMessage) {
  EXPECT_EXIT((ArmDeadline(0.2, "gordian test: out of time"), Spin(20), _exit(0)),
              ::testing::ExitedWithCode(2), "gordian test: out of time");
}

// Runs `sleep 30` under a 0.3 s deadline; returns only if the deadline
// did not end the process once RunProcess had returned.
void RunChildPastTheDeadline() {
  ArmDeadline(0.3, "deadline passed");
  ProcessSpec spec;
  spec.argv = {"sleep", "30"};
  spec.pass_through = false;
  ProcessResult r;
  std::string err;
  auto t0 = Clock::now();
  bool ran = RunProcess(spec, &r, &err);
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  Spin(5);
  fprintf(stderr, "still here: ran=%d timed_out=%d after %.1fs\n", ran, r.timed_out, secs);
}

TEST(Deadline, BoundsARunningChildAndThenEnds) {
  auto t0 = Clock::now();
  EXPECT_EXIT((RunChildPastTheDeadline(), _exit(0)), ::testing::ExitedWithCode(2),
              "deadline passed");
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_LT(secs, 10.0) << "the child was killed at the deadline, not left to finish";
}

TEST(Deadline, SecondsLeftCountsDownAndDisarms) {
  EXPECT_TRUE(std::isinf(SecondsLeft()));
  ArmDeadline(100, "x");
  double left = SecondsLeft();
  EXPECT_GT(left, 99.0);
  EXPECT_LE(left, 100.0);
  // A fifth of the limit is kept for the work that must still be done.
  double optional = SecondsLeftForOptionalWork();
  EXPECT_GT(optional, 79.0);
  EXPECT_LE(optional, 80.0);
  DisarmDeadline();
  EXPECT_TRUE(std::isinf(SecondsLeft()));
  EXPECT_TRUE(std::isinf(SecondsLeftForOptionalWork()));
  ArmDeadline(std::numeric_limits<double>::infinity(), "x");
  EXPECT_TRUE(std::isinf(SecondsLeft())) << "an infinite limit is no limit";
}

}  // namespace
}  // namespace gordian::driver
