// This file implements DetectOccurred: it builds the index once and runs the
// occurred detectors in an order where each can rely on what the earlier
// ones established (crashes first, then the explanations of blocked
// goroutines, then leaks).
#include "gordian/detect/occurred.h"

namespace gordian::detect {

std::vector<report::Finding> DetectOccurred(const trace::Trace& t,
                                            const OccurredOptions& opt) {
  std::vector<report::Finding> out;
  OccurredIndex ix(t);
  OccurredState st;
  st.hb = opt.hb;
  st.partners = opt.partners;
  DetectClosedChannelOps(ix, &st, &out);
  DetectSyncMisuse(ix, &st, &out);
  DetectPanics(ix, &st, &out);
  DetectDoubleLocks(ix, &st, &out);
  DetectBlockedCycles(ix, &st, &out);
  DetectGlobalDeadlock(ix, &st, &out);
  DetectLeaks(ix, &st, &out);
  DetectConcurrentRecv(ix, &st, &out);
  return out;
}

}  // namespace gordian::detect
