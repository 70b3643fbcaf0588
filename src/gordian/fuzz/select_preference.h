// This file declares the select-preference strategy (GFuzz): for each
// select a run executed, each case other than the one it took becomes a
// "prefer" line of a schedule without a prefix (docs/schedule-format.md):
// in the next run every select at that site tries that case first and
// waits for it, within a bounded total wait, before it falls back to an
// ordinary select. Unlike a forced case in a prefix, a preference acts on
// the free run: it reaches selects (and executions of a select) that the
// recorded run never had, such as the second iteration of a loop whose
// first iteration took the other branch.
//
// A schedule that added coverage (any strategy's: a prediction's prefix,
// a delay point, a set of preferences; or one of the corpus) is mutated
// further, as GFuzz mutates the select orders that found new behaviour:
// a preference for one more select of the run joins it (so a prefix gets
// preferences for the free run after it, and one preference becomes a
// set), a preferred select gets another of its cases, its wait gets
// longer or shorter, or a preference is dropped.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

class SelectPreference final : public Strategy {
 public:
  const char* Name() const override { return "select"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 64;
  // Total time one preference may wait over a run (the prefer line's
  // WAIT_MS): long enough for a slow partner, short enough that a case
  // that never becomes ready costs one bounded wait.
  uint32_t wait_ms = 1000;
  // Mutations of a schedule that added coverage, per run: at most this
  // many proposed, out of at most this many drawn.
  size_t max_mutations = 4;
  size_t mutation_attempts = 16;
  // The bounds of a mutated wait.
  uint32_t min_wait_ms = 60;
  uint32_t max_wait_ms = 16000;
};

}  // namespace gordian::fuzz
