// This file implements the occurred detectors of misused testing methods,
// from TestCall records (a goroutine's call of a reporting method of a
// test's T; a test's own goroutine is the one that wrote its TestStart, a
// subtest has its own):
//   - testing-after-end: a goroutine other than the test's own called the
//     method after the test function had returned (its stamp is after the
//     TestEnd), not through one of the test's subtests (test_calls.h). Go
//     panics ("Fail in goroutine after TestX has completed") once the test
//     has completed, or the output and failure go astray; the recorder's
//     settling at TestEnd keeps the test open a while, so the call often
//     lands without a panic. A call not ordered before the end that ran
//     before it is predicted/testing_after_end.cc's.
//   - failnow-outside-test: a goroutine other than the test's own called a
//     fail-now or skip-now method (FailNow, Fatal, Fatalf, SkipNow, Skip,
//     Skipf). These end the calling goroutine with runtime.Goexit; from
//     another goroutine that ends the helper, not the test, which runs on
//     after a failure meant to stop it (go vet's testinggoroutine check,
//     seen in the run).
#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"
#include "gordian/detect/test_calls.h"

namespace gordian::detect {
namespace {

// The finding of kind at call i by goroutine gid, with its spawn.
Finding CallFinding(const OccurredIndex& ix, FindingKind kind, RecordId i, Gid gid) {
  Finding f = OccurredFinding(ix, kind, i);
  f.locations.push_back(ix.Loc(i, Role::Call));
  const RecordId spawn = ix.SpawnOfGid(gid);
  if (spawn != hb::kNoRecord) {
    f.locations.push_back(ix.Loc(spawn, Role::Spawn));
    f.interleaving.push_back(ix.StepOf(spawn, Role::Spawn, "go statement"));
  }
  return f;
}

}  // namespace

void DetectTestingMisuse(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  for (RecordId i : ix.ops().TestCalls()) {
    const Record& r = ix.rec(i);
    const TestInfo* t = ix.TestByIndex(r.obj);
    const Gid gid = ix.GidOf(i);
    if (t == nullptr || gid == t->gid) continue;
    const char* call = TestCallMethods(r.val);
    const auto cls = static_cast<trace::TestCallClass>(r.val);
    if (RanAfterItsTestEnded(ix.ops(), i, *t) && !OrderedThroughSubtest(ix.ops(), st->hb, i, *t)) {
      Finding f = CallFinding(ix, FindingKind::TestingAfterEnd, i, gid);
      f.message = fmt::format(
          "goroutine {} called {} at {} on the T of {} after the test function had returned, "
          "and nothing orders the call before the test's end: once the test has completed, "
          "the call panics with \"{} in goroutine after {} has completed\" or its output is "
          "lost",
          ix.StableId(gid), call, BaseName(ix.Where(i)), t->name, CompletedTestPanicWord(r.val),
          t->name);
      f.interleaving.push_back(
          ix.StepOf(i, Role::Call, fmt::format("{} after {} returned", call, t->name)));
      FinishFinding(ix, &f);
      out->push_back(std::move(f));
    }
    if (cls != trace::TestCallClass::FailNow && cls != trace::TestCallClass::SkipNow) continue;
    Finding f = CallFinding(ix, FindingKind::FailNowOutsideTest, i, gid);
    f.message = fmt::format(
        "goroutine {} called {} at {} on the T of {}, which must be called from the test's "
        "own goroutine: runtime.Goexit ended goroutine {}, not the test",
        ix.StableId(gid), call, BaseName(ix.Where(i)), t->name, ix.StableId(gid));
    f.interleaving.push_back(
        ix.StepOf(i, Role::Call, "Goexit of this goroutine; the test goes on"));
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
  }
}

}  // namespace gordian::detect
