// This file declares the rewriting of a predicted finding into a schedule
// (ADVOCATE's trace rewriting, reference-advocate.md §3.3): a strict prefix
// that is a linearization of the happens-before past of the bug's
// operations, with the bug's operations themselves in the buggy order,
// then a free run. Running the schedule (pipeline/schedule_runner.h) and
// checking the expectations against the replayed trace (pipeline/confirm.h)
// confirms or refutes the prediction.
//
// Per kind, the plan (the bug's operations in the buggy order, taken from
// Finding::records, and what the replay must show) sits beside the detector
// that predicts the kind (detect/predict.h lists them), registered in the
// rewrite column of report/finding_kinds.def (detect/rewrite_plan.h).
//
// Every schedule also keeps each Wait's counter as the relation assumes:
// an Add the relation does not order before a listed Wait comes after it.
// Other kinds are not rewritten: RewriteFinding returns false.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/detect/rewrite_plan.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::rewrite {

// What the replayed trace must show for the bug to count as happened.
using detect::Expect;

struct Expectation {
  std::string goroutine;  // stable id (spawn path)
  uint32_t index = 0;     // among the goroutine's controlled operations (AfterTestEnd: its TestCalls)
  trace::Kind kind = trace::Kind::None;
  std::string site;       // "file:line"
  int32_t choice = 0;     // SelectCaseClosed: the case index
  Expect expect = Expect::Completed;
};

struct Rewrite {
  schedule::Schedule schedule;
  std::vector<Expectation> expect;  // all must hold
  std::string how;                  // one line: the buggy order, for people
};

// Whether RewriteFinding handles predicted findings of kind k (it can still
// fail on one finding, e.g. a past too large).
bool Rewritable(report::FindingKind k);

// Builds the schedule for predicted finding f of trace t (recorded in
// trace_dir). hb is the engine built from t; weak is the engine without
// unlock->lock edges (may be null; then lock-order and mixed deadlocks are
// not rewritten). False with *err when the finding cannot be rewritten.
bool RewriteFinding(const trace::Trace& t, const std::string& trace_dir,
                    const hb::HappensBefore& hb, const hb::HappensBefore* weak,
                    const report::Finding& f, Rewrite* out, std::string* err);

// A plan whose past holds more than kMaxPastOperations controlled
// operations is not rewritten: a schedule that long is no reproduction,
// and its linearization costs gigabytes. TooLargeToRewrite tells from the
// trace alone, before any clock is built: the operations of each bug
// operation's goroutine up to it, and of its ancestors up to the go
// statements that started them, are in its past; true with *why when they
// already pass the bound.
inline constexpr size_t kMaxPastOperations = 4'000'000;
bool TooLargeToRewrite(const trace::Trace& t, const hb::OpIndex& ops, const detect::Plan& plan,
                       std::string* why, size_t max = kMaxPastOperations);

// The linearization of any plan (the fuzzer's alternatives of a run, which
// are not findings): plan.bug in that order with their past in e (the
// engine plan.weak asks for), then a free run. The schedule expects no
// finding kind; origin heads its origin line ("fuzz alternative-partner").
bool RewritePlan(const trace::Trace& t, const std::string& trace_dir, const hb::HappensBefore& e,
                 const detect::Plan& plan, std::string_view origin, Rewrite* out,
                 std::string* err);

// Whether replayed trace t shows every expectation ("" = yes, else the first
// that does not hold, in words).
std::string CheckExpectations(const std::vector<Expectation>& ex, const trace::Trace& t);

// Whether replayed trace t ended with every goroutine blocked: the
// recorder's watchdog wrote its GlobalDeadlock record. A goroutine leak
// whose replay ends so hangs the whole test, which the report says.
bool EndedInGlobalDeadlock(const trace::Trace& t);

}  // namespace gordian::rewrite
