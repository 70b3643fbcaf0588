// Tests of which test a finding is attributed to (OccurredIndex::TestOf):
// a goroutine belongs to the test whose goroutine spawned it; one whose
// spawn chain reaches the main goroutine without a test (TestMain, an
// Example function) belongs to no test, whatever test windows its stamps
// fall into.
#include <gtest/gtest.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/raw_trace_builder_test.h"

namespace gordian::detect {
namespace {

using testing::RawTraceBuilder;
using trace::Kind;

TEST(TestAttribution, GoroutineOfTheMainGoroutineBelongsToNoTest) {
  RawTraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), sp = b.Site("x_test.go", 10),
           snd = b.Site("x_test.go", 11), esp = b.Site("x_test.go", 30),
           esnd = b.Site("x_test.go", 31);
  // TestSlow starts, never records its end (the binary was killed while it
  // ran), so its window stays open over everything after it.
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 1, b.Str("TestSlow"));
  uint32_t g = b.StuckSender(tg, sp, snd, 1);
  // An Example runs on the main goroutine and leaks a goroutine.
  uint32_t eg = b.StuckSender(1, esp, esnd, 2);
  trace::Trace t = b.Build();
  OccurredIndex ix(t);
  uint32_t example_send = t.goroutines[eg - 1].end - 1;
  uint32_t test_send = t.goroutines[g - 1].end - 1;
  EXPECT_EQ(ix.TestOf(test_send), "TestSlow");
  EXPECT_EQ(ix.TestOf(example_send), "") << "an Example's goroutine is not TestSlow's";
}

TEST(TestAttribution, GoroutineWithoutKnownParentFallsBackToTheTestWindow) {
  RawTraceBuilder b;
  uint32_t q = b.Site("testing.go", 1600, false), snd = b.Site("x_test.go", 11);
  uint32_t tg = b.Go(1, q);
  b.Op(tg, Kind::TestStart, q, 1, b.Str("TestA"));
  uint32_t g = b.Go(tg, q);
  b.Begin(g, Kind::ChanSend, snd, 1, 1);
  b.Op(tg, Kind::TestEnd, q, 1);
  trace::Trace t = b.Build();
  // The runtime started g (its GoStart was not recorded): parent unknown.
  t.goroutines[g - 1].parent = 0;
  OccurredIndex ix(t);
  EXPECT_EQ(ix.TestOf(t.goroutines[g - 1].end - 1), "TestA");
}

}  // namespace
}  // namespace gordian::detect
