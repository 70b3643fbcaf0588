// This file implements the testing-after-end prediction: a goroutine other
// than a test's own calls a reporting method of the test's T (t.Log,
// t.Errorf, t.Fatal, ...: a TestCall record) and nothing orders that call
// before the test's end.
//
// Rule: for a TestCall x on test T by a goroutine that is not T's own, if
// T ended (TestEnd E) and not Before(x, E), report x. Then some schedule
// consistent with the run runs E first, and package testing marks T done
// before x: x panics ("Log in goroutine after TestX has completed", "Fail in
// goroutine after ..."), or, while a parent test still runs, its output
// goes to the parent and its failure is lost. A WaitGroup the test waits on
// after the goroutine's Done, or a channel the test receives from, orders
// the call before E: not reported.
//
// A call that started after E in the run is not a prediction: it is
// reported as occurred (occurred/testing_misuse.cc).
//
// Subtests: testing completes a test only after its subtests (t.Run waits
// for a sequential subtest, the parent's end for parallel ones), an order
// the trace does not show as an edge. So a call ordered before the end of a
// subtest of T (a test named "T/..."), or made by a goroutine of a subtest,
// is ordered before T completes, and is not reported (test_calls.h).
//
// The engine's question is Before(x, E): E's clock is read, and x's
// goroutine's entry (clock_needs.cc keeps the clocks of TestEnd records,
// read_goroutines.cc reads the goroutines that make TestCalls).
//
// Rewrite: the replay holds the calling goroutine at the call until the
// test has ended (the plan at the bottom of this file), which shows the
// call after the end, and the finding is confirmed.
#include <fmt/format.h>

#include "gordian/detect/predicted/predict_context.h"
#include "gordian/detect/rewrite_plan.h"
#include "gordian/detect/test_calls.h"

namespace gordian::detect {
void PredictTestingAfterEnd(PredictContext& c) {
  for (RecordId x : c.ops.TestCalls()) {
    const trace::Record& r = c.rec(x);
    const hb::TestInfo* t = c.ops.TestByIndex(r.obj);
    if (t == nullptr || t->end_rec == hb::kNoRecord) continue;  // no end to run after
    if (c.ops.GidOf(x) == t->gid) continue;  // the test's own goroutine
    // A call that ran after the end is reported as occurred (occurred/testing_misuse.cc).
    if (RanAfterItsTestEnded(c.ops, x, *t)) continue;
    if (!c.Spend(1)) return;
    if (c.hb.Before(x, t->end_rec)) continue;
    if (OrderedThroughSubtest(c.ops, &c.hb, x, *t)) continue;
    const char* call = TestCallMethods(r.val);
    report::Finding f = c.NewFinding(report::FindingKind::TestingAfterEnd, x, report::Role::Call);
    const RecordId spawn = c.ops.SpawnOfGid(c.ops.GidOf(x));
    if (spawn != hb::kNoRecord) c.AddLocation(&f, spawn, report::Role::Spawn);
    f.message = fmt::format(
        "goroutine {} calls {} at {} on the T of {}, and nothing orders the call before the "
        "test ends: in another schedule {} has completed first, and the call panics with "
        "\"{} in goroutine after {} has completed\" or its output is lost",
        c.Index().StableId(c.ops.GidOf(x)), call, BaseName(c.Where(x)), t->name, t->name,
        CompletedTestPanicWord(r.val), t->name);
    if (spawn != hb::kNoRecord) {
      c.AddStep(&f, spawn, report::Role::Spawn, "go statement: the test does not wait for it");
    }
    c.AddStep(&f, x, report::Role::Call,
              fmt::format("{} after {} has completed: panic", call, t->name));
    c.Emit(std::move(f));
  }
}

// ---- Rewrite (rewrite/rewrite.h)
// [call, spawn?] -> the call x held at itself until its test has ended (an
// after_end line of the schedule: the runtime holds the goroutine in the
// TestCall hook, before the record is written and before the method runs).
// The prefix is the happens-before past of the caller's last controlled
// operation before x, that operation last, so the caller reaches x as it
// did in the recording; a caller without one is not listed and reaches x
// in the free run. Holding a goroutine is a schedule every run can take,
// and nothing the program orders is skipped or reordered: the test ends,
// as the prediction says it can without the call, then the call runs.
// Expected: x's TestCall comes after its test's TestEnd in the replay,
// which occurred/testing_misuse.cc reports as testing-after-end.
namespace {

bool PlanTestingAfterEnd(const PlanInput& in, std::vector<Plan>* plans, std::string* err) {
  const trace::Trace& t = in.t;
  const RecordId x = in.f.records[0];
  if (t.records[x].kind != trace::Kind::TestCall) {
    *err = "the finding does not start at a testing call";
    return false;
  }
  const trace::GoroutineIndex gi = in.hb.ops().GoroutineIndexOf(x);
  if (gi == trace::kNoGoroutine) return true;
  const trace::Goroutine& g = t.goroutines[trace::Value(gi)];
  if (g.stable_id.empty() || g.stable_id[0] < '0' || g.stable_id[0] > '9') {
    // "?12": a goroutine the runtime started; a schedule cannot name it.
    *err = "the calling goroutine has no stable identity, so no schedule can hold it";
    return false;
  }
  Plan p;
  for (RecordId r = x; r > g.begin;) {
    r--;
    if (trace::InfoOf(t.records[r].kind).controlled) {
      p.bug.push_back(BugOp{r, kChoiceRecorded, Expect::Completed, false});
      break;
    }
  }
  p.after_end.push_back(x);
  p.how = fmt::format("the call at {} is held until its test has ended", SiteAt(t, x));
  plans->push_back(std::move(p));
  return true;
}

}  // namespace

extern const RewriteSpec kTestingAfterEndRewrite{PlanTestingAfterEnd, false, /*index_only=*/true};

}  // namespace gordian::detect
