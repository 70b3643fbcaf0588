// Tests of WeakUnneeded (weak_unneeded.cc): which records the engine
// without lock edges keeps a clock for. That the detectors find the same
// with these clocks as with every clock is clock_needs_test.cc's
// differential test.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

// The records WeakUnneeded keeps, as "goroutine KIND@obj" in record order
// (goroutine by goroutine).
std::vector<std::string> Kept(const std::string& text) {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace(text, "weak.trace", &t, &err)) << err;
  hb::OpIndex ops;
  ops.Build(t);
  hb::HappensBefore engine{hb::HbOptions{}};
  EXPECT_TRUE(engine.Build(ops, &err)) << err;
  PredictOptions po;
  std::vector<report::Finding> out;
  PredictContext c(t, engine, po, &out);
  std::shared_ptr<const hb::RecordMask> unneeded = WeakUnneeded(c);
  EXPECT_EQ(unneeded->size(), t.records.size());
  std::vector<std::string> kept;
  for (uint32_t i = 0; i < t.records.size(); ++i) {
    if ((*unneeded)[i]) continue;
    kept.push_back(fmt::format("{} {}@{}", trace::Value(ops.GidOf(i)),
                               trace::KindName(t.records[i].kind), t.records[i].obj));
  }
  return kept;
}

TEST(WeakUnneeded, CriticalSectionsTakenAloneKeepNoClock) {
  EXPECT_TRUE(Kept("1 go 2\n"
                   "1 MutexLock obj=1\n"
                   "1 MutexUnlock obj=1\n"
                   "2 MutexLock obj=1\n"
                   "2 MutexUnlock obj=1\n"
                   "2 MutexLock obj=2\n"
                   "2 MutexUnlock obj=2\n")
                  .empty());
}

TEST(WeakUnneeded, ALockTakenUnderAnotherKeepsItsClock) {
  // Lock order asks about the inner requests (2 under 1, 1 under 2).
  EXPECT_EQ(Kept("1 go 2\n"
                 "1 MutexLock obj=1\n"
                 "1 MutexLock obj=2\n"
                 "1 MutexUnlock obj=2\n"
                 "1 MutexUnlock obj=1\n"
                 "2 MutexLock obj=2\n"
                 "2 MutexLock obj=1\n"
                 "2 MutexUnlock obj=1\n"
                 "2 MutexUnlock obj=2\n"),
            (std::vector<std::string>{"1 MutexLock@2", "2 MutexLock@1"}));
}

TEST(WeakUnneeded, ADependencyTakenAgainAndAgainKeepsItsFirstInstancesOnly) {
  // Lock order compares the first 4 instances of each dependency (the
  // same goroutine, lock and held set): the other nested requests are no
  // question.
  std::string text = "1 go 2\n";
  for (int k = 0; k < 6; ++k) {
    text += "1 MutexLock obj=1\n1 MutexLock obj=2\n1 MutexUnlock obj=2\n1 MutexUnlock obj=1\n";
  }
  text += "2 MutexLock obj=2\n2 MutexLock obj=1\n2 MutexUnlock obj=1\n2 MutexUnlock obj=2\n";
  EXPECT_EQ(Kept(text), (std::vector<std::string>{"1 MutexLock@2", "1 MutexLock@2", "1 MutexLock@2",
                                                  "1 MutexLock@2", "2 MutexLock@1"}));
}

TEST(WeakUnneeded, ALockHeldAtASendKeepsItsAcquisitionAndThePartnersBefore) {
  // Mixed deadlock: 1 holds the mutex while it sends; the receiver took
  // the mutex before its receive (LB); 2's later critical section is no
  // question.
  EXPECT_EQ(Kept("1 ChanMake obj=2\n"
                 "1 go 2\n"
                 "2 MutexLock obj=1\n"
                 "2 MutexUnlock obj=1\n"
                 "1 MutexLock obj=1\n"
                 "s: 1 ChanSend obj=2 val=1 open\n"
                 "2 ChanRecv obj=2 val=1\n"
                 "end s\n"
                 "1 MutexUnlock obj=1\n"
                 "2 MutexLock obj=1\n"
                 "2 MutexUnlock obj=1\n"),
            (std::vector<std::string>{"1 MutexLock@1", "2 MutexLock@1"}));
}

TEST(WeakUnneeded, AnRWMutexReadLockedTwiceKeepsItsReadAndWriteLocks) {
  EXPECT_EQ(Kept("1 go 2\n"
                 "1 RLock obj=1\n"
                 "1 RLock obj=1\n"
                 "1 RUnlock obj=1\n"
                 "1 RUnlock obj=1\n"
                 "2 RWLock obj=1\n"
                 "2 RWUnlock obj=1\n"),
            (std::vector<std::string>{"1 RLock@1", "1 RLock@1", "2 RWLock@1"}));
}

}  // namespace
}  // namespace gordian::detect
