// This file implements the questions about TestCall records (test_calls.h).
#include "gordian/detect/test_calls.h"

namespace gordian::detect {

const char* TestCallMethods(uint32_t val) {
  switch (static_cast<trace::TestCallClass>(val)) {
    case trace::TestCallClass::Log: return "t.Log/Logf";
    case trace::TestCallClass::Fail: return "t.Error/Errorf/Fail";
    case trace::TestCallClass::FailNow: return "t.Fatal/Fatalf/FailNow";
    case trace::TestCallClass::SkipNow: return "t.Skip/Skipf/SkipNow";
  }
  return "a testing method";
}

const char* CompletedTestPanicWord(uint32_t val) {
  const auto cls = static_cast<trace::TestCallClass>(val);
  return cls == trace::TestCallClass::Fail || cls == trace::TestCallClass::FailNow ? "Fail" : "Log";
}

bool IsSubtestOf(const hb::TestInfo& sub, const hb::TestInfo& t) {
  return sub.name.size() > t.name.size() && sub.name.compare(0, t.name.size(), t.name) == 0 &&
         sub.name[t.name.size()] == '/';
}

bool RanAfterItsTestEnded(const hb::OpIndex& ops, hb::RecordId x, const hb::TestInfo& t) {
  return t.end_rec != hb::kNoRecord && ops.trace().records[x].tpre > t.end;
}

bool OrderedThroughSubtest(const hb::OpIndex& ops, const hb::HappensBefore* hb, hb::RecordId x,
                           const hb::TestInfo& t) {
  const trace::Gid gid = ops.GidOf(x);
  const std::string own = ops.TestOf(x);  // the test the calling goroutine belongs to
  for (const hb::TestInfo& sub : ops.tests()) {
    if (!IsSubtestOf(sub, t)) continue;
    if (sub.gid == gid || own == sub.name) return true;
    if (hb != nullptr && sub.end_rec != hb::kNoRecord && hb->Before(x, sub.end_rec)) return true;
  }
  return false;
}

}  // namespace gordian::detect
