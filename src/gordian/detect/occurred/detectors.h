// This file declares what the occurred detectors (../occurred.h lists them)
// share: the state of one run over a trace, the names they
// all use, how an occurred finding starts, and one function per family.
// Only occurred/ includes it; the entry point is detect/occurred.h.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "gordian/detect/occurred.h"
#include "gordian/detect/occurred_index.h"
#include "gordian/report/finding.h"
#include "gordian/trace/trace.h"

namespace gordian::detect {

using report::Finding;
using report::FindingKind;
using report::Role;
using trace::Kind;
using trace::Record;

// What the detectors share while running over one trace.
struct OccurredState {
  const hb::HappensBefore* hb = nullptr;  // may be null
  PartnerFinder partners;                 // may be empty
  // Goroutines whose forever-blocked operation a detector already explained
  // (a double lock, a global deadlock); the leak detector skips them.
  std::set<Gid> explained_blocked;
  // Stamp of the first operation that crashed the program (a fatal panic or
  // runtime error), trace::kNoStamp when the program did not crash. Goroutines
  // that were blocked when it crashed are not leaks.
  uint32_t crash_stamp = trace::kNoStamp;
};

// True when the panic raised by record rec (a Panic record, or the
// operation the recorder flagged as panicking) was recovered: the program
// outlived it (recovered.cc). Such a panic is a warning, and not a crash
// (crash_stamp stays).
bool PanicRecovered(const OccurredIndex& ix, RecordId rec);
// For the finding f of the recoverable panic raised by rec: a warning whose
// message says so when it was recovered, else a crash at rec (crash_stamp).
void SettlePanic(const OccurredIndex& ix, RecordId rec, OccurredState* st,
                 report::Finding* f);

// One detector per family (occurred.h lists the files): it appends its
// findings to out.
using OccurredDetector = void(const OccurredIndex& ix, OccurredState* st,
                              std::vector<Finding>* out);
OccurredDetector DetectClosedChannelOps;
OccurredDetector DetectSyncMisuse;
OccurredDetector DetectPanics;
OccurredDetector DetectDoubleLocks;
OccurredDetector DetectBlockedCycles;
OccurredDetector DetectGlobalDeadlock;
OccurredDetector DetectLeaks;
OccurredDetector DetectConcurrentRecv;
OccurredDetector DetectTestingMisuse;

// A finding of kind that occurred at record rec: its status, default
// severity and test; the detector adds locations, steps and message.
Finding OccurredFinding(const OccurredIndex& ix, FindingKind kind, RecordId rec);

}  // namespace gordian::detect
