// This file implements DetectOccurred: over the trace's one index, it runs the
// occurred detectors in an order where each can rely on what the earlier
// ones established (crashes first, then the explanations of blocked
// goroutines, then leaks).
#include "gordian/detect/occurred.h"

#include <optional>

#include "gordian/detect/occurred/detectors.h"
#include "gordian/util/phase_timing.h"

namespace gordian::detect {

std::vector<report::Finding> DetectOccurred(const trace::Trace& t,
                                            const OccurredOptions& opt) {
  std::vector<report::Finding> out;
  util::PhaseTimer timer("occurred");  // GORDIAN_TIMING=1
  const hb::OpIndex* ops = opt.ops != nullptr ? opt.ops : opt.hb != nullptr ? &opt.hb->ops() : nullptr;
  std::optional<OccurredIndex> view;
  if (ops != nullptr) {
    view.emplace(*ops);
  } else {
    view.emplace(t);
  }
  const OccurredIndex& ix = *view;
  timer.Lap("index view");
  OccurredState st;
  st.hb = opt.hb;
  st.partners = opt.partners;
  // A run that did not end by itself (killed at -wall, by a signal, by
  // kill -9: no ProgramExit and no exit status), or whose recording stopped
  // before it did (a full disk, the size limit), proves nothing about what
  // its goroutines were still waiting for: only leaks a test end saw are
  // claims then, as after a crash.
  if (!ix.ops().Exited() || !t.incomplete.empty()) st.crash_stamp = trace::kNoStamp - 1;
  // One lap per detector (GORDIAN_TIMING=1).
  struct Named {
    OccurredDetector* detect;
    const char* name;
  };
  for (Named d : {Named{DetectClosedChannelOps, "DetectClosedChannelOps"},
                  Named{DetectSyncMisuse, "DetectSyncMisuse"}, Named{DetectPanics, "DetectPanics"},
                  Named{DetectDoubleLocks, "DetectDoubleLocks"},
                  Named{DetectBlockedCycles, "DetectBlockedCycles"},
                  Named{DetectGlobalDeadlock, "DetectGlobalDeadlock"},
                  Named{DetectLeaks, "DetectLeaks"},
                  Named{DetectConcurrentRecv, "DetectConcurrentRecv"},
                  Named{DetectTestingMisuse, "DetectTestingMisuse"}}) {
    d.detect(ix, &st, &out);
    timer.Lap(d.name);
  }
  return out;
}

Finding OccurredFinding(const OccurredIndex& ix, FindingKind kind, RecordId rec) {
  Finding f;
  f.kind = kind;
  f.status = report::Status::Occurred;
  f.severity = report::DefaultSeverity(kind);
  f.test = ix.TestOf(rec);
  return f;
}

}  // namespace gordian::detect
