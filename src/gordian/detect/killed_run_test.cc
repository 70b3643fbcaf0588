// Tests that a run which did not end by itself (killed at -wall, by a
// signal or kill -9: no ProgramExit) reports no goroutine as "blocked
// forever" at its end; a leak that a test end saw is still reported.
#include <gtest/gtest.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/raw_trace_builder_test.h"

namespace gordian::detect {
namespace {

using testing::RawTraceBuilder;
using trace::Kind;

// One goroutine stuck in a send; ends with ProgramExit when exited.
trace::Trace StuckSender(bool exited, bool seen_at_test_end) {
  RawTraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), sp = b.Site("k_test.go", 10),
           snd = b.Site("k_test.go", 11);
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 1, b.Str("TestKilled"));
  uint32_t g = b.StuckSender(tg, sp, snd, 1);
  if (seen_at_test_end) {
    b.Op(tg, Kind::BlockedAtTestEnd, q, g, 1);
    b.Op(tg, Kind::TestEnd, q, 1);
  }
  if (exited) b.Op(1, Kind::ProgramExit, 0, 0, 0);
  return b.Build();
}

size_t Leaks(const std::vector<report::Finding>& all) {
  size_t n = 0;
  for (const report::Finding& f : all) n += f.kind == report::FindingKind::GoroutineLeak;
  return n;
}

TEST(KilledRun, NoLeakClaimedAtTheEndOfAKilledRun) {
  EXPECT_EQ(Leaks(DetectOccurred(StuckSender(/*exited=*/true, false))), 1u);
  EXPECT_EQ(Leaks(DetectOccurred(StuckSender(/*exited=*/false, false))), 0u)
      << "a run killed while a goroutine waited proves no leak";
}

TEST(KilledRun, LeakSeenAtATestEndIsStillReported) {
  EXPECT_EQ(Leaks(DetectOccurred(StuckSender(/*exited=*/false, /*seen=*/true))), 1u);
}

}  // namespace
}  // namespace gordian::detect
