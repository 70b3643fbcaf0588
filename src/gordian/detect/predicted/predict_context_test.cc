// Tests of PredictContext's view of objects without clocks: Unclocked (the
// first record has none: the whole object is shed or exempt) against
// PartlyUnclocked (some record has none), which the information
// detectors (alternatives.cc, contention.cc) use to skip an object whose
// questions would all be answered "ordered".
#include "gordian/detect/predicted/predict_context.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

// Channel 1: made by 1, a send by 1 and a receive by 2; mutex 2: a Lock and
// an Unlock by 2.
trace::Trace TwoObjects() {
  trace::Trace t;
  std::string err;
  EXPECT_TRUE(trace::ParseTextTrace("1 ChanMake obj=1 val=1\n"
                                    "1 go 2\n"
                                    "1 ChanSend obj=1 val=1\n"
                                    "2 ChanRecv obj=1 val=1\n"
                                    "2 MutexLock obj=2\n"
                                    "2 MutexUnlock obj=2\n",
                                    "two.trace", &t, &err))
      << err;
  return t;
}

// Whether each object (the channel, then the mutex) is Unclocked and
// PartlyUnclocked with the records of kinds `without` marked in a mask,
// given to the engine as unneeded (clock needs) or as unclocked (shed).
struct Answers {
  bool chan_all, chan_part, mutex_all, mutex_part;
};
Answers Ask(const trace::Trace& t, const std::vector<Kind>& without, bool shed) {
  hb::OpIndex ops;
  ops.Build(t);
  auto mask = std::make_shared<hb::RecordMask>(t.records.size());
  for (size_t i = 0; i < t.records.size(); ++i) {
    for (Kind k : without) {
      if (t.records[i].kind == k) mask->Set(i);
    }
  }
  hb::HbOptions o;
  (shed ? o.unclocked : o.unneeded) = mask;
  hb::HappensBefore engine(o);
  std::string err;
  EXPECT_TRUE(engine.Build(ops, &err)) << err;
  PredictOptions po;
  std::vector<report::Finding> out;
  PredictContext c(t, engine, po, &out);
  EXPECT_EQ(ops.Count(ObjClass::Chan), 1u);
  EXPECT_EQ(ops.Count(ObjClass::Mutex), 1u);
  return {c.Unclocked(ObjClass::Chan, 0), c.PartlyUnclocked(ObjClass::Chan, 0),
          c.Unclocked(ObjClass::Mutex, 0), c.PartlyUnclocked(ObjClass::Mutex, 0)};
}

TEST(PredictContext, AnObjectWithoutClockOnSomeRecordIsPartlyUnclocked) {
  const trace::Trace t = TwoObjects();
  for (bool shed : {false, true}) {
    SCOPED_TRACE(shed ? "unclocked (shed)" : "unneeded (clock needs)");
    Answers none = Ask(t, {}, shed);
    EXPECT_FALSE(none.chan_all || none.chan_part || none.mutex_all || none.mutex_part);
    // Only the receive: the channel is partly without clocks, not wholly;
    // the mutex keeps its clocks.
    Answers recv = Ask(t, {Kind::ChanRecv}, shed);
    EXPECT_FALSE(recv.chan_all);
    EXPECT_TRUE(recv.chan_part);
    EXPECT_FALSE(recv.mutex_all || recv.mutex_part);
    // The mutex's Lock, its first record: wholly and so partly.
    Answers lock = Ask(t, {Kind::MutexLock}, shed);
    EXPECT_TRUE(lock.mutex_all);
    EXPECT_TRUE(lock.mutex_part);
    EXPECT_FALSE(lock.chan_all || lock.chan_part);
  }
}

}  // namespace
}  // namespace gordian::detect
