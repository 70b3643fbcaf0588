// This file implements DetectOccurred: over the trace's one index, it runs the
// occurred detectors in an order where each can rely on what the earlier
// ones established (crashes first, then the explanations of blocked
// goroutines, then leaks).
#include "gordian/detect/occurred.h"

#include <optional>

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
  // kill -9: no ProgramExit and no exit status) proves nothing about what
  // its goroutines were still waiting for: only leaks a test end saw are
  // claims then, as after a crash.
  if (!ix.ops().Exited()) st.crash_stamp = UINT32_MAX - 1;
  DetectClosedChannelOps(ix, &st, &out);
  timer.Lap("DetectClosedChannelOps");
  DetectSyncMisuse(ix, &st, &out);
  timer.Lap("DetectSyncMisuse");
  DetectPanics(ix, &st, &out);
  timer.Lap("DetectPanics");
  DetectDoubleLocks(ix, &st, &out);
  timer.Lap("DetectDoubleLocks");
  DetectBlockedCycles(ix, &st, &out);
  timer.Lap("DetectBlockedCycles");
  DetectGlobalDeadlock(ix, &st, &out);
  timer.Lap("DetectGlobalDeadlock");
  DetectLeaks(ix, &st, &out);
  timer.Lap("DetectLeaks");
  DetectConcurrentRecv(ix, &st, &out);
  timer.Lap("DetectConcurrentRecv");
  return out;
}

}  // namespace gordian::detect
