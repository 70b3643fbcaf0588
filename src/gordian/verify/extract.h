// This file declares model extraction for `gordian verify` (docs/verify.md,
// "Models"): the IR of a program (src/gordian/ir/ir.h) to one Model (model.h)
// per entry point, after Gomela (Dilley and Lange): each test function, each
// exported function, and each function that creates a primitive and takes none
// as a parameter. Callees are inlined to a bounded depth; `go` statements
// become process templates; integers that shape concurrency (capacities, Add
// deltas, loop bounds) become model parameters; whatever the extractor cannot
// model becomes a note on the model, never an error.
#pragma once

#include <string>
#include <vector>

#include "gordian/ir/ir.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

struct ExtractOptions {
  // Calls nested deeper than this (and recursive calls) are not inlined:
  // a note says so and the call is taken as touching nothing.
  int inline_depth = 3;
  // A dynamic or interface call with more possible callees than this
  // inlines the first ones only (a note says so).
  int max_callees = 4;
  // A model whose code grows past this many instructions stops inlining.
  int max_instructions = 20000;
  // Values each parameter gets in Parameter::values (the command overrides
  // them with -param).
  std::vector<int64_t> default_values = {0, 1, 2, 3, 4, 5};
};

// The functions of the packages the program was generated for that are
// entry points, in the program's order.
std::vector<const ir::Function*> EntryPoints(const ir::Program& prog);

// The model of one entry point. Never fails: what cannot be modelled is in
// Model::notes.
Model ExtractModel(const ir::Program& prog, const ir::Function& entry, const ExtractOptions& opts);

// ExtractModel of every entry point.
std::vector<Model> ExtractModels(const ir::Program& prog, const ExtractOptions& opts);

}  // namespace gordian::verify
