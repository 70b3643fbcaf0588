// This file declares the OCCURRED detectors: bugs that happened in the
// recorded run itself, read straight off the trace (no prediction). Each
// family lives in its own file:
//   occurred_closed.cc  send-on-closed, close-of-closed, close-of-nil,
//                       recv-on-closed (warning)
//   occurred_sync.cc    negative-waitgroup, unlock-of-unlocked
//   panics.cc           panic (and the runtime panics of the kinds above when
//                       the recorder saw only the Panic record)
//   recovered.cc        whether a panic was recovered (then it is a warning)
//   deadlock.cc         global-deadlock
//   double_lock.cc      double-lock
//   blocked_cycles.cc   lock-order-deadlock and mixed-deadlock that occurred
//   leaks.cc            goroutine-leak, per primitive, with possible partners
//   concurrent_recv.cc  concurrent-recv (warning)
// All findings have status occurred and absolute file paths (the report
// step makes them relative to the module root).
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <vector>

#include "gordian/detect/occurred_index.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

// Finds the records that could have completed the blocked record rec in
// another schedule (detect/predict.h FindPossiblePartners, bound to a
// happens-before engine built from the same trace).
using PartnerFinder = std::function<void(uint32_t rec, std::vector<uint32_t>* partners)>;

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

// What the detectors share while running over one trace.
struct OccurredState {
  const hb::HappensBefore* hb = nullptr;  // may be null
  PartnerFinder partners;                 // may be empty
  // Goroutines whose forever-blocked operation a detector already explained
  // (a double lock, a global deadlock); the leak detector skips them.
  std::set<uint32_t> explained_blocked;
  // Stamp of the first operation that crashed the program (a fatal panic or
  // runtime error), UINT32_MAX when the program did not crash. Goroutines
  // that were blocked when it crashed are not leaks.
  uint32_t crash_stamp = UINT32_MAX;
};

// True when the panic raised by record rec (a Panic record, or the
// operation the recorder flagged as panicking) was recovered: the program
// outlived it (recovered.cc). Such a panic is a warning, and not a crash
// (crash_stamp stays).
bool PanicRecovered(const OccurredIndex& ix, uint32_t rec);
// For the finding f of the recoverable panic raised by rec: a warning whose
// message says so when it was recovered, else a crash at rec (crash_stamp).
void SettlePanic(const OccurredIndex& ix, uint32_t rec, OccurredState* st,
                 report::Finding* f);

void DetectClosedChannelOps(const OccurredIndex& ix, OccurredState* st,
                            std::vector<report::Finding>* out);
void DetectSyncMisuse(const OccurredIndex& ix, OccurredState* st,
                      std::vector<report::Finding>* out);
void DetectPanics(const OccurredIndex& ix, OccurredState* st,
                  std::vector<report::Finding>* out);
void DetectDoubleLocks(const OccurredIndex& ix, OccurredState* st,
                       std::vector<report::Finding>* out);
void DetectBlockedCycles(const OccurredIndex& ix, OccurredState* st,
                         std::vector<report::Finding>* out);
void DetectGlobalDeadlock(const OccurredIndex& ix, OccurredState* st,
                          std::vector<report::Finding>* out);
void DetectLeaks(const OccurredIndex& ix, OccurredState* st,
                 std::vector<report::Finding>* out);
void DetectConcurrentRecv(const OccurredIndex& ix, OccurredState* st,
                          std::vector<report::Finding>* out);

}  // namespace gordian::detect
