// This file declares DetectOccurred, the entry point of the OCCURRED
// detectors: bugs that happened in the recorded run itself, read straight
// off the trace (no prediction). They live in occurred/, what they share in
// occurred/detectors.h, each family in its own file:
//   closed_channels.cc  send-on-closed, close-of-closed, close-of-nil,
//                       recv-on-closed (warning)
//   sync_misuse.cc      negative-waitgroup, unlock-of-unlocked
//   panics.cc           panic (and the runtime panics of the kinds above when
//                       the recorder saw only the Panic record)
//   recovered.cc        whether a panic was recovered (then it is a warning)
//   global_deadlock.cc  global-deadlock
//   double_lock.cc      double-lock
//   blocked_cycles.cc   lock-order-deadlock and mixed-deadlock that occurred
//   leaks.cc            goroutine-leak, per primitive, with possible partners
//   concurrent_recv.cc  concurrent-recv (warning)
//   testing_misuse.cc   testing-after-end that occurred, failnow-outside-test
//   detect_occurred.cc  DetectOccurred: runs them in order
// All findings have status occurred and absolute file paths (the report
// step makes them relative to the module root).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "gordian/detect/occurred_index.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

// Finds the records that could have completed the blocked record rec in
// another schedule (detect/predict.h FindPossiblePartners, bound to a
// happens-before engine built from the same trace).
using PartnerFinder = std::function<void(RecordId rec, std::vector<RecordId>* partners)>;

struct OccurredOptions {
  // The happens-before engine built from the same trace, or null. With it,
  // concurrent-recv asks whether two receives are concurrent; without it,
  // whether they waited at the same time.
  const hb::HappensBefore* hb = nullptr;
  // Without a partner finder, leak reports name every operation of other
  // goroutines on the same object.
  PartnerFinder partners;
  // The index of the same trace (hb/op_index.h), or null: then hb's, or
  // without hb, DetectOccurred indexes the trace itself.
  const hb::OpIndex* ops = nullptr;
};

// Runs every occurred detector over t, in a fixed order. The result is not
// yet de-duplicated (report::Dedup does that).
std::vector<report::Finding> DetectOccurred(const trace::Trace& t,
                                            const OccurredOptions& opt = {});

}  // namespace gordian::detect
