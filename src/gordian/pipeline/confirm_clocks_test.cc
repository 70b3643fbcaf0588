// Tests of ClocksForConfirmation (confirm.h): which clocks the engine that
// replays the predictions of a trace needs, decided before it is built.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/hb/op_index.h"
#include "gordian/pipeline/confirm.h"
#include "gordian/trace/text.h"

namespace gordian::pipeline {
namespace {

// A test that starts goroutine 3, which logs on the test's T after the test
// may have ended (testing-after-end, whose plan reads the index only):
// what ClocksForConfirmation says of its findings and of `extra`, with
// before_call what goroutine 3 does before the call and after what
// goroutine 2 does after the test's end. *t gets the trace.
ConfirmClocks Clocks(const std::string& before_call, const std::string& after, trace::Trace* t,
                     std::vector<report::Finding> extra = {}) {
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace("1 go 2\n"
                                    "2 TestStart obj=1 val=\"TestFetch\"\n"
                                    "2 go 3\n" +
                                        before_call + "3 TestCall obj=1 val=2\n" +
                                        "2 TestEnd obj=1\n" + after,
                                    "clocks.trace", t, &err))
      << err;
  hb::OpIndex ops;
  ops.Build(*t);
  hb::HappensBefore engine{hb::HbOptions{}};
  EXPECT_TRUE(engine.Build(ops, &err)) << err;
  std::vector<report::Finding> found;
  detect::PredictBugs(*t, engine, &found);
  EXPECT_FALSE(found.empty());
  if (!found.empty()) {
    EXPECT_EQ(found[0].kind, report::FindingKind::TestingAfterEnd);
  }
  for (report::Finding& f : extra) found.push_back(std::move(f));
  return ClocksForConfirmation(*t, engine, found);
}

// The start stamp of the record of kind k on object obj (the text's obj).
uint32_t StartOf(const trace::Trace& t, trace::Kind k, uint32_t obj) {
  for (const trace::Record& r : t.records) {
    if (r.kind == k && r.obj == obj) return r.tpre;
  }
  return 0;
}

TEST(ClocksForConfirmation, ACallWithNothingBeforeItNeedsNoEngine) {
  trace::Trace t;
  EXPECT_FALSE(Clocks("", "", &t).needed);
}

TEST(ClocksForConfirmation, ACallAfterAnOperationNeedsTheClocksUpToThatOperation) {
  trace::Trace t;
  ConfirmClocks c = Clocks("3 MutexLock obj=5\n3 MutexUnlock obj=5\n",
                           "2 MutexLock obj=6\n2 MutexUnlock obj=6\n", &t);
  // The plan's bug operation is the Unlock before the call: nothing that
  // started after it is read, so the later records of goroutine 2 need no
  // clock.
  const uint32_t unlock = StartOf(t, trace::Kind::MutexUnlock, 5);
  ASSERT_NE(unlock, 0u);
  EXPECT_LT(unlock, StartOf(t, trace::Kind::MutexLock, 6));
  EXPECT_TRUE(c.needed);
  EXPECT_EQ(c.up_to_stamp, unlock);
}

TEST(ClocksForConfirmation, APlanKnownOnlyWithTheEngineNeedsEveryClock) {
  report::Finding other;
  other.kind = report::FindingKind::SendOnClosed;
  other.status = report::Status::Predicted;
  other.severity = report::Severity::Bug;
  other.records = {0};
  trace::Trace t;
  ConfirmClocks c = Clocks("3 MutexLock obj=5\n3 MutexUnlock obj=5\n", "", &t, {other});
  EXPECT_TRUE(c.needed);
  EXPECT_EQ(c.up_to_stamp, UINT32_MAX);
}

}  // namespace
}  // namespace gordian::pipeline
