// This file defines the rewrite plans of predicted findings: for a finding
// kind, the bug's operations in the buggy order and what the replay must
// show for the bug to count as happened. Each kind's plan sits beside the
// detector that predicts it (send_on_closed.cc, select_leak.cc, ...) and is
// registered in the rewrite column of report/finding_kinds.def;
// rewrite/rewrite.h turns a plan into a schedule (the linearization of the
// happens-before past of the bug's operations) and checks the expectations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

// What the replayed trace must show for the bug to count as happened.
enum class Expect : uint8_t {
  Completed,         // the operation completed
  Blocked,           // it never completed (a deadlock's or leak's operation)
  Closed,            // it hit a closed channel (kClosed): send panicked, recv got zero
  Failed,            // it failed (kFailed): negative counter, unlock of unlocked
  SelectCaseClosed,  // a Select whose case `choice` hit the closed channel
  // A testing call (a TestCall, not a controlled operation: its index counts
  // its goroutine's TestCalls) that ran after its test's TestEnd.
  AfterTestEnd,
};

// A select choice of a bug operation (the values of schedule.h's kChoiceFree
// and kChoiceDefault; rewrite/rewrite.cc checks that they agree).
inline constexpr int32_t kChoiceRecorded = -2;  // the recorded choice
inline constexpr int32_t kChoiceDefault = -1;   // the default case

struct BugOp {
  trace::RecordId rec = 0;           // a controlled record (a Select, not its case)
  int32_t choice = kChoiceRecorded;  // forced select case
  Expect expect = Expect::Completed;
  bool check = true;                 // part of the expectations
};

struct Plan {
  bool weak = false;       // linearize with the engine without lock edges
  std::vector<BugOp> bug;  // in the buggy order
  std::string how;         // one line: the buggy order, for people
  // TestCall records that the replay holds, after the prefix, until their
  // test has ended (the schedule's after_end lines); each is expected to
  // run after that end (Expect::AfterTestEnd).
  std::vector<trace::RecordId> after_end{};
};

// "x.go:12" of record rec of t, for Plan::how.
inline std::string SiteAt(const trace::Trace& t, trace::RecordId rec) {
  return SiteText(t, t.records[rec]);
}

// What a plan is made from: the finding (its records, see
// predict_context.cc), the trace, the engine it was predicted with, and the
// engine without unlock->lock edges (null when there is none).
struct PlanInput {
  const trace::Trace& t;
  const hb::HappensBefore& hb;
  const hb::HappensBefore* weak;
  const report::Finding& f;
};

// Appends the plans to try, best first: the rewrite takes the first that
// linearizes. Leaving *plans empty means the finding does not carry the
// operations a rewrite needs; false with *err gives a more precise reason.
using PlanFn = bool (*)(const PlanInput& in, std::vector<Plan>* plans, std::string* err);

struct RewriteSpec {
  PlanFn plan = nullptr;    // nullptr: findings of the kind are not rewritten
  bool needs_weak = false;  // the plan may use PlanInput::weak (build it first)
  // The plan reads the index only, never a clock: made with any engine it
  // is the same, so the analysis can tell before it builds the engine with
  // every clock whether the plan has operations to linearize at all.
  bool index_only = false;
};

// The rewrite of a finding kind (the rewrite column of finding_kinds.def).
const RewriteSpec& RewriteOf(report::FindingKind k);

// The bug operation for channel record r (a plain operation, or a case of a
// select: then the select itself, forced to that case; an expected Closed
// becomes SelectCaseClosed).
BugOp ChanBugOp(const trace::Trace& t, const hb::OpIndex& ops, trace::RecordId r, Expect expect,
                bool check);

}  // namespace gordian::detect
