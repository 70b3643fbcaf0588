// This file declares how `gordian verify` checks one model: the valuations
// of its parameters it tries (Gomela's mandatory parameters over their
// values, optional ones at their first value unless -param gave values),
// one Check per valuation, and each violation as a report::Finding with
// status Predicted whose message names the smallest valuation it was found
// for. Violations with the same key found under several valuations are one
// finding. No side effects: the command (cli/verify_command.cc) prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

struct VerifyOptions {
  // -param NAME=VALUES: the values a parameter takes instead of its own.
  std::map<std::string, std::vector<int64_t>> param_values;
  size_t max_valuations = 256;  // more: the smallest ones (by sum) are checked
  // The budget of one model, over all its valuations together: past
  // max_model_states states (summed) or max_model_seconds of wall time
  // (0: none) the model stops where it is, keeps the findings it has and
  // says "bounded". Valuations go smallest first, so what a bounded model
  // did check is its smallest valuations, where most bugs show. The
  // default is measured (docs/verify.md, "Cost per model").
  uint64_t max_model_states = 1'000'000;
  double max_model_seconds = 0;
  // After each valuation's safety check, search its unreduced state graph
  // for fair cycles (liveness.h: partial-deadlock, undelivered-message)
  // when the model may run forever; its states count in the budget.
  bool liveness = true;
  // At most this many of the budget's states go to the liveness search
  // (it runs after every valuation's safety check, on what is left): its
  // unreduced graph is far larger than the safety search's reduced one.
  uint64_t max_liveness_states = 200'000;
  CheckOptions check;           // param_values and deadline are set per valuation
  std::string root;             // Model::files are relative to it unless absolute
};

struct ModelResult {
  std::vector<report::Finding> findings;
  uint64_t states = 0;        // summed over the valuations
  uint64_t liveness_states = 0;  // of them, the liveness search's
  size_t valuations = 0;      // checked
  size_t all_valuations = 0;  // there were (more than valuations: capped)
  // A limit cut the search (of a valuation or of the model's budget): no
  // finding does not mean no bug. bound_reason says which, e.g. "bounded:
  // 2000000 states (-max-model-states), 3 of 6 valuations checked".
  bool bounded = false;
  bool out_of_budget = false;  // the model's own budget (states or wall) was the limit
  std::string bound_reason;
};

// The valuations of m's parameters, smallest sum first (ties in
// lexicographic order), at most max; *all gets their number.
std::vector<std::vector<int64_t>> Valuations(const Model& m, const VerifyOptions& opts, size_t* all);

// "n=3, len(jobs)=4" (parameters in the model's order), "" for none.
std::string ValuationText(const Model& m, const std::vector<int64_t>& values);

// The finding of violation v of model m, found first under `values`.
report::Finding ToFinding(const Model& m, const Violation& v, const std::string& when,
                          const std::string& root);

ModelResult VerifyModel(const Model& m, const VerifyOptions& opts);

}  // namespace gordian::verify
