// This file declares the liveness search of `gordian verify` (after the
// Godel checker's liveness and eventual reception): over the unreduced state
// graph of one valuation of a model, a reachable cycle that a fair
// scheduler can run forever while
//   - a process of the program stays blocked in every state of it
//     (partial-deadlock: a server or loop runs on, the process never moves),
//   - or a buffered channel stays non-empty and nobody receives from it
//     (undelivered-message: the message at the head of its buffer is never
//     received).
// Fair means: every process, timer and timeout that is enabled in every
// state of the cycle takes a step in it (weak fairness), and every outcome
// of a choice the model cannot decide (a branch on data it does not track,
// a choice among callees, a select case) that is possible infinitely often
// is taken (strong fairness on choices: a loop over data ends, and Go's
// select picks among ready cases at random). The counterexample is a lasso:
// the steps to the cycle, then the cycle (Violation::cycle_start).
// docs/verify.md, "Liveness", says why and what it costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/verify/checker.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

struct LivenessResult {
  std::vector<Violation> violations;  // one per key
  uint64_t states = 0;                // states of the unreduced graph
  bool bounded = false;  // a limit cut the graph: a cycle not found may exist
  bool out_of_states = false;
  bool out_of_time = false;
  std::string bound_reason;
};

// False when no run of m can be infinite: no template has a backward jump
// and none makes a ticker, so every run ends and no search is needed.
bool MayRunForever(const Model& m);

// Builds the state graph of m under opts (opts.max_states and
// opts.deadline bound it; partial-order reduction is never used: the
// reduced graph does not keep which process is enabled where, which
// fairness needs) and reports each fair cycle as above.
LivenessResult CheckLiveness(const Model& m, const CheckOptions& opts);

}  // namespace gordian::verify
