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
  CheckOptions check;           // param_values is set per valuation
  std::string root;             // Model::files are relative to it unless absolute
};

struct ModelResult {
  std::vector<report::Finding> findings;
  uint64_t states = 0;        // summed over the valuations
  size_t valuations = 0;      // checked
  size_t all_valuations = 0;  // there were (more than valuations: capped)
  bool bounded = false;       // a check hit a limit of CheckOptions
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
