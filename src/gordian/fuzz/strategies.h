// This file declares the strategies `gordian fuzz` combines, one class
// each, with what each proposes; each is implemented in its own file
// (prediction_guided.cc, pair_flip.cc, select_preference.cc,
// delay_points.cc, scheduling_chains.cc, conflicting_pairs.cc) with its own test. What a
// strategy is, and the default combination: strategy.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gordian/fuzz/strategy.h"

namespace gordian::fuzz {

// The prediction-guided strategy: every alternative the analysis of a run
// already knows becomes a schedule prefix (schedule/rewrite.h's
// linearization of the alternative's operations in the new order, then a
// free run):
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
class PredictionGuided final : public Strategy {
 public:
  const char* Name() const override { return "prediction"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 256;  // proposals from one run (loops repeat alternatives)
};

// The pair-flip strategy, the first step towards GoPie's scheduling chains
// (a chain of length two, mutated by its flip): two operations on the same
// Once, WaitGroup or Cond by different goroutines that took effect one
// right after the other, and that happens-before leaves unordered, in the
// other order (the later one first, each with its past, then a free run).
// Who runs a Once's function, whether a Wait comes before an Add, whether
// a Signal finds its waiter: each decides which branch the program takes
// next. Channels and locks are the prediction-guided strategy's
// (alternative partners, lock orders).
class PairFlip final : public Strategy {
 public:
  const char* Name() const override { return "flip"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 128;
};

// The select-preference strategy (GFuzz): for each select a run executed,
// each case other than the one it took becomes a "prefer" line of a
// schedule without a prefix (docs/schedule-format.md): in the next run
// every select at that site tries that case first and waits for it, within
// a bounded total wait, before it falls back to an ordinary select. Unlike
// a forced case in a prefix, a preference acts on the free run: it reaches
// selects (and executions of a select) that the recorded run never had,
// such as the second iteration of a loop whose first iteration took the
// other branch.
//
// A schedule that added coverage (any strategy's: a prediction's prefix,
// a delay point, a set of preferences; or one of the corpus) is mutated
// further, as GFuzz mutates the select orders that found new behaviour:
// a preference for one more select of the run joins it (so a prefix gets
// preferences for the free run after it, and one preference becomes a
// set), a preferred select gets another of its cases, its wait gets
// longer or shorter, or a preference is dropped.
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

// The delay-point strategy (PCT-style, with a depth): from the controlled
// operations a run executed it picks `depth` random points, each "the n-th
// operation at site S" counted over all goroutines in the order they
// reached S, and proposes a schedule without a prefix whose "delay" lines
// hold the goroutine that reaches each point until the others are blocked
// or asleep, or a bounded time has passed (docs/schedule-format.md). A
// goroutine that is slow at that moment lets the others run between its
// check and its act: check-then-act on len(ch) or on a flag read under a
// lock, which no trace records and no prediction reorders, then goes
// wrong. Random: the points come from the run's generator
// (AnalysedRun::rng, seeded by gordian fuzz -seed).
class DelayPoints final : public Strategy {
 public:
  const char* Name() const override { return "delay"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t per_run = 6;     // proposals from one run
  uint32_t max_depth = 3; // points per proposal: 1 to max_depth (PCT's d)
  // The bound of a hold (a delay line's WAIT_MS), one of these at random:
  // short holds cost little, long ones outlast a sleeping goroutine.
  std::vector<uint32_t> waits_ms = {50, 300, 1500};
};

// The scheduling-chains strategy (GoPie): from one run, chains of
// operations on channels, WaitGroups, Onces and Conds that the run left
// unordered across goroutines, mutated by GoPie's flip, abridge,
// substitute and augment (chain_mutation.h), each chain that asks for an
// order the run did not take proposed as a schedule prefix (the chain in
// order, each operation with its happens-before past, then a free run).
// Where the pair-flip strategy reverses one pair, a chain orders up to a
// few operations on one object at once (three callers of a Once, three
// senders on a channel), or a different pair than the run's neighbours.
// Locks are left to the prediction-guided strategy's lock orders (the
// run's engine orders critical sections by unlock->lock).
//
// A proposed schedule names its chain ("chain" lines, schedule.h), so
// that when its run adds coverage (or when it comes back from the corpus
// in a later campaign) the chain, found again in that run's trace, is
// mutated further first, as GoPie keeps and mutates the chains that
// reached new pairs.
class SchedulingChains final : public Strategy {
 public:
  const char* Name() const override { return "chain"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;

  size_t max_per_run = 8;    // new chains (from the run's neighbours) proposed per run
  size_t max_from_kept = 4;  // mutations of the chain of a schedule that added coverage
  size_t attempts = 48;      // mutated chains drawn per run, at most
  size_t peer_window = 8;    // peers: among the next operations on the object
};

// The conflicting-pairs strategy: systematic, bounded exploration of a
// run's conflicting pairs, where the others draw at random (delay points,
// chains) or look at neighbours only (pair flip, lock orders). A
// conflicting pair is two completed operations on one object by different
// goroutines that the run ordered one way and that could have taken effect
// the other way (nothing but the object itself orders them): two sends, a
// send and a close, two receives on a channel; two acquisitions of a lock
// (not two RLocks; the engine without unlock->lock edges decides); any two
// operations on a WaitGroup, Once or Cond (can_go_first.h). Not only
// neighbours: each operation with the next `window` ones on the object.
//
// Depth 1: every pair of the run reversed (the later one first, each with
// its past, then a free run), earliest first, each pair of sites once per
// campaign: the strategy remembers what it proposed, so each run proposes
// the next max_per_run pairs no earlier run proposed, and a campaign long
// enough reverses every pair its runs show.
// Depth 2 and more (up to max_depth): a run that followed a reversal and
// added coverage has that reversal found again in its trace (each
// operation by goroutine and index, as the prefix ordered it) and gets it
// with one more pair of its own, on another object, reversed: two
// orderings at once, on different objects, which the iteration of single
// reversals loses when the second one's past does not hold the first.
class ConflictingPairs final : public Strategy {
 public:
  const char* Name() const override { return "pairs"; }
  void Propose(const AnalysedRun& run, std::vector<Candidate>* out) override;
  void Begin() override;

  size_t max_per_run = 8;    // new reversals of one pair, per run
  size_t max_from_kept = 4;  // deeper reversals from a run that added coverage
  size_t max_depth = 2;      // pairs reversed in one schedule
  size_t window = 8;         // each operation pairs with the next `window` on its object
  // The operations of one site that are paired with the next ones on
  // their object: the first per_site executions of the site in the run (a
  // loop repeats its pairs at the same sites).
  size_t per_site = 8;

  // An operation of a proposed reversal: how the next run finds it again.
  struct Where {
    std::string path;  // its goroutine's stable id
    uint32_t index;    // among the goroutine's controlled operations
    uint8_t kind;      // trace::Kind
    std::string site;  // "file:line"
  };
  // A reversed pair: the operation put first, then the one it overtook.
  struct Reversal {
    Where first, second;
    std::string key;  // the pair's own key ("flip send a.go:20 before send a.go:10")
  };

 private:
  std::set<std::string> tried_;                           // keys proposed in this campaign
  std::map<std::string, std::vector<Reversal>> reversals_;  // candidate key -> its reversals
};

}  // namespace gordian::fuzz
