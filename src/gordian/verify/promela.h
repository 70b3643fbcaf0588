// This file declares the Promela export of `gordian verify -promela DIR`
// (docs/verify.md, "Promela export"): one model (model.h) under one valuation
// of its parameters as a Promela program SPIN can check, so SPIN's verdict can
// be set beside the own checker's (checker.h). The export is text only;
// writing files is the command's (cli/promela_export.cc).
//
// Bug kinds map onto SPIN's two verdicts (the table in promela.cc,
// docs/verify.md): a panic of the model (send on closed, close of closed or
// nil, negative WaitGroup, unlock of unlocked, double lock, any other
// panic) is an `assert(false)` ("assertion violated"); a state where no
// process can move and some non-environment process has not returned
// (global deadlock, goroutine leak, lock-order and mixed deadlock) is
// SPIN's "invalid end state".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/verify/checker.h"
#include "gordian/verify/model.h"

namespace gordian::verify {

// What the own checker said about one model and valuation, in SPIN's terms.
struct SpinVerdict {
  bool assertion = false;  // a violation SPIN reports as "assertion violated"
  bool end_state = false;  // a violation SPIN reports as "invalid end state"
  bool bounded = false;    // the checker hit a limit: no verdict to compare
  std::string kinds;       // the violations' kind names, comma-separated
};

// True when SPIN reports violation v as an assertion, false when as an
// invalid end state.
bool IsAssertionKind(const Violation& v);

SpinVerdict VerdictOf(const CheckResult& r);

struct PromelaOptions {
  // The objects a run may make (MAXOBJ in the file, which spin -DMAXOBJ=N
  // overrides); the own checker should run with max_objects equal to it
  // for the verdicts to be comparable.
  int32_t max_objects = 16;
  // What an unknown count may be, as CheckOptions::unknown_values.
  std::vector<int64_t> unknown_values = {0, 1, 2};
  // When set, the header records it (`gordian-verdict:` line) for tools
  // that compare the verdicts (tests/verify, bench/run-spin-compare).
  const SpinVerdict* verdict = nullptr;
  uint64_t states = 0;     // recorded with the verdict
  double seconds = 0;      // the checker's time, recorded with the verdict
};

// The Promela program of m with its parameters fixed to values (one per
// Model::params entry). m must pass Validate.
std::string ToPromela(const Model& m, const std::vector<int64_t>& values, const PromelaOptions& opts);

// A file name for m under values: the entry point and the valuation, with
// every byte other than [A-Za-z0-9._-] written as %XX, ending in ".pml"
// (long names are cut and end in a hash of the whole).
std::string PromelaFileName(const Model& m, const std::vector<int64_t>& values);

// The first line of every file ToPromela writes: a file that does not
// start with it is not the export's to overwrite.
extern const char kPromelaMarker[];

}  // namespace gordian::verify
