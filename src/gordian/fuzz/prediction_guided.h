// This file declares the prediction-guided strategy: every alternative the
// analysis of a run already knows becomes a schedule prefix (schedule/
// rewrite.h's linearization of the alternative's operations in the new
// order, then a free run):
//   - alternative partners: a receive (or a select's receive case) that
//     could have got its value from another concurrent send, or found the
//     channel closed (detect::FindPossiblePartners); the recorded partner
//     and what depends on it are left out of the prefix, so the receive
//     meets the other one;
//   - alternative select cases: a case other than the chosen one whose
//     channel has a possible partner (the partner goes first), a timer
//     case, or the default of a select that chose a case;
//   - lock orders: two acquisitions of one lock by different goroutines that
//     only the lock itself orders, in the other order (the engine without
//     unlock->lock edges);
//   - predicted bugs of a rewritable kind: their rewrite (rewrite/rewrite.h).
// Message contention (two senders racing for a receiver) is an alternative
// partner of that receiver. The campaign runs each, and the alternatives of
// the new run come back here: the chain reaches control flow that no single
// trace shows (a value-dependent branch after the other message).
#pragma once

#include <cstddef>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

class PredictionGuided final : public Strategy {
 public:
  const char* Name() const override { return "prediction"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 256;  // proposals from one run (loops repeat alternatives)
};

}  // namespace gordian::fuzz
