// This file declares the model checker of `gordian verify` (issue 14): a
// bounded explicit-state search over every interleaving of a Model's
// processes (model.h) for one valuation of its parameters, with state
// hashing and partial-order reduction (a process's next step that touches
// nothing shared is taken alone). It reports each violation once, with the
// shortest-found sequence of steps that leads to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

struct CheckOptions {
  // One value per Model::params entry, in order.
  std::vector<int64_t> param_values;
  // The values an unknown count (an empty Expr used as a capacity, delta or
  // loop bound) may take.
  std::vector<int64_t> unknown_values = {0, 1, 2};
  uint64_t max_states = 2'000'000;  // past it the result says "bounded"
  int32_t max_processes = 64;       // more live processes: the path is cut
  int32_t max_objects = 256;
  int32_t max_depth = 10'000;       // steps on one path
};

// One step of a counterexample: process `process` ran the instruction at
// `pc` of its template.
struct CheckStep {
  int32_t process = 0;
  int32_t template_index = 0;
  int32_t pc = 0;
  int32_t select_case = -1;  // for a select: the case it took (-1: default)
  bool blocks = false;       // the process is blocked here at the end
};

struct Violation {
  report::FindingKind kind = report::FindingKind::GlobalDeadlock;
  report::Primitive primitive = report::Primitive::None;  // leaks
  // Where it happens: the process and pc that panicked, or each process
  // blocked forever at the end (as blocks=true steps).
  std::vector<CheckStep> where;
  // The interleaving from the initial state, the violating step last.
  std::vector<CheckStep> steps;
  // A stable identity: the kind and the positions in `where`, so the same
  // bug found for several valuations is one finding.
  std::string key;
};

struct CheckResult {
  std::vector<Violation> violations;  // one per key
  uint64_t states = 0;                // distinct states visited
  bool bounded = false;  // a limit of CheckOptions cut the search: no
                         // violation found does not mean none exists
  std::string bound_reason;
};

// Explores m (which must pass Validate) under opts.
CheckResult Check(const Model& m, const CheckOptions& opts);

}  // namespace gordian::verify
