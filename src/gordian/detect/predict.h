// This file defines the predictive analyses: bugs that the recorded run did
// not hit but another schedule of the same run can (status "predicted"),
// and the analysis scenarios of Sulzmann and Stadtmüller's two-phase
// analysis as information. All of them read the
// happens-before engine (gordian/hb/happens_before.h); none re-runs anything.
//
// They live in predicted/, what they share in predicted/predict_context.h,
// each detector in its own file with its soundness argument:
//   send_on_closed.cc      send-on-closed (bug)
//   recv_on_closed.cc      recv-on-closed (warning)
//   negative_waitgroup.cc  negative-waitgroup (bug)
//   unlock_of_unlocked.cc  unlock-of-unlocked (bug)
//   lock_order.cc          lock-order-deadlock (bug)
//   recursive_rlock.cc     double-lock: recursive RLock with a writer between (bug)
//   mixed_deadlock.cc      mixed-deadlock (bug)
//   select_leak.cc         goroutine-leak (or global-deadlock, for main) another
//                          order would cause (bug)
//   testing_after_end.cc   testing-after-end: a t.Log, t.Errorf, ... by another
//                          goroutine not ordered before its test's end (bug)
//   alternatives.cc        alternative-partner, select-case-alternatives (info)
//   contention.cc          message-contention (info)
//   partners.cc            FindPossiblePartners (for leak reports)
#pragma once

#include <cstdint>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

struct PredictOptions {
  bool bugs = true;      // severity bug
  bool warnings = true;  // severity warning
  bool info = true;      // the two-phase analysis's scenarios (severity info)
  // Upper bound on the work of the pairwise searches (alternative partners,
  // counter matching); beyond it a detector reports what it found so far.
  uint64_t work_limit = 200'000'000;
  // The second engine (no mutex edges: lock-order, mixed-deadlock): whether
  // it may be built and its clock budget (UINT64_MAX: the first engine's).
  // The analysis of a trace sets them from its memory budget
  // (pipeline/memory_budget.h) and reads back what it cost in *weak_use.
  bool allow_weak = true;
  uint64_t weak_clock_budget_bytes = UINT64_MAX;
  uint64_t weak_memory_limit_bytes = UINT64_MAX;  // hb::HbOptions::memory_limit_bytes
  struct WeakUse {
    bool wanted = false;  // a detector asked for it
    bool built = false;
    uint64_t clock_bytes = 0;  // its clocks, live and stored (hb::HbStats::engine_bytes)
    uint64_t records_without_clock = 0;
  };
  WeakUse* weak_use = nullptr;
};

// Appends predicted findings for the run in t (hb must be built from t).
// Findings carry a dedup_key: the same bug reached from several loop
// iterations or goroutines is reported once by this function already.
void PredictBugs(const trace::Trace& t, const hb::HappensBefore& hb,
                 std::vector<report::Finding>* out,
                 const PredictOptions& opt = {});

// For an operation that blocked (or any channel operation, Select, lock):
// the records that could have completed it in another schedule (Sulzmann
// and Stadtmüller's "deadlock recovery"), in trace order:
// - channel send / receive / select case: operations of the other direction
//   on the channel (and closes, for receives) that do not happen before it,
//   plus, on buffered channels, sends whose value could still have been in
//   the buffer when it started;
// - Select: the union over its cases;
// - mutex lock: the acquisition still holding the lock when the trace ended.
void FindPossiblePartners(const hb::HappensBefore& hb, trace::RecordId rec,
                          std::vector<trace::RecordId>* partners);

}  // namespace gordian::detect
