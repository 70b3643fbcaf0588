// This file declares the scheduling-chains strategy (GoPie): from one
// run, chains of operations on channels, WaitGroups, Onces and Conds
// that the run left unordered across goroutines, mutated by GoPie's flip,
// abridge, substitute and augment (chain_mutation.h), each chain that asks
// for an order the run did not take proposed as a schedule prefix (the
// chain in order, each operation with its happens-before past, then a free
// run). Where the pair-flip strategy reverses one pair, a chain orders up
// to a few operations on one object at once (three callers of a Once,
// three senders on a channel), or a different pair than the run's
// neighbours. Locks are left to the prediction-guided strategy's lock
// orders (the run's engine orders critical sections by unlock->lock).
//
// A proposed schedule names its chain ("chain" lines, schedule.h), so
// that when its run adds coverage (or when it comes back from the corpus
// in a later campaign) the chain, found again in that run's trace, is
// mutated further first, as GoPie keeps and mutates the chains that
// reached new pairs.
#pragma once

#include <cstddef>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

class SchedulingChains final : public Strategy {
 public:
  const char* Name() const override { return "chain"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 8;    // new chains (from the run's neighbours) proposed per run
  size_t max_from_kept = 4;  // mutations of the chain of a schedule that added coverage
  size_t attempts = 48;      // mutated chains drawn per run, at most
  size_t peer_window = 8;    // peers: among the next operations on the object
};

}  // namespace gordian::fuzz
