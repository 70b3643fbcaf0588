// This file implements the occurred detector of failnow-outside-test: a
// goroutine other than a test's own called a fail-now or skip-now method of
// the test's T (FailNow, Fatal, Fatalf, SkipNow, Skip, Skipf: a TestCall
// record of that class). These end the calling goroutine with
// runtime.Goexit; from another goroutine that ends the helper, not the
// test, which runs on after a failure meant to stop it (go vet's
// testinggoroutine check, seen in the run). A test's own goroutine is the
// one that wrote its TestStart; a subtest has its own.
#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {

void DetectFailNowOutsideTest(const OccurredIndex& ix, OccurredState*, std::vector<Finding>* out) {
  for (uint32_t i : ix.ops().TestCalls()) {
    const Record& r = ix.rec(i);
    const auto cls = static_cast<trace::TestCallClass>(r.val);
    if (cls != trace::TestCallClass::FailNow && cls != trace::TestCallClass::SkipNow) continue;
    const TestInfo* t = ix.TestByIndex(r.obj);
    const Gid gid = ix.GidOf(i);
    if (t == nullptr || gid == t->gid) continue;
    const char* call = cls == trace::TestCallClass::FailNow ? "t.Fatal/Fatalf/FailNow"
                                                            : "t.Skip/Skipf/SkipNow";
    Finding f = OccurredFinding(ix, FindingKind::FailNowOutsideTest, i);
    f.locations.push_back(ix.Loc(i, Role::Call));
    const uint32_t spawn = ix.SpawnOfGid(gid);
    if (spawn != hb::kNoRecord) {
      f.locations.push_back(ix.Loc(spawn, Role::Spawn));
      f.interleaving.push_back(ix.StepOf(spawn, Role::Spawn, "go statement"));
    }
    f.message = fmt::format(
        "goroutine {} called {} at {} on the T of {}, which must be called from "
        "the test's own goroutine: runtime.Goexit ended goroutine {}, not the test",
        ix.StableId(gid), call, BaseName(ix.Where(i)), t->name, ix.StableId(gid));
    f.interleaving.push_back(
        ix.StepOf(i, Role::Call, "Goexit of this goroutine; the test goes on"));
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
  }
}

}  // namespace gordian::detect
