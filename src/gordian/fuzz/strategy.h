// This file declares what a fuzzing strategy is: something that looks at
// one analysed run of a test and proposes schedules to run next. The
// campaign (campaign.h) runs every proposal once (proposals with the same
// key are one), analyses the run and shows it to every strategy again.
// The strategies are declared together in strategies.h, each with what it
// proposes; each is implemented in its own file with its own test:
//   prediction_guided.cc  the alternatives the analysis computes for a run
//                         (partners, select cases, lock orders, predicted
//                         bugs) as schedule prefixes.
//   pair_flip.cc          two operations on a Once, WaitGroup or Cond that
//                         only the run ordered, the other way round.
//   select_preference.cc  each case a select of the run did not take, as a
//                         preference of the free run (GFuzz).
//   delay_points.cc       random "n-th operation at a site" points where a
//                         goroutine is held (PCT with a depth).
//   scheduling_chains.cc  chains of unordered operations on one object,
//                         mutated as GoPie does; chains that added
//                         coverage are mutated again.
//   conflicting_pairs.cc  every pair of conflicting operations of a run,
//                         each reversed once per campaign (systematic,
//                         earliest first); a reversal that added coverage
//                         gets a second one on another object.
// A new strategy implements Strategy (its class in strategies.h), is added
// to DefaultStrategies (strategy.cc), and gets a row in
// docs/fuzzing-schedules.md.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gordian/fuzz/rng.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::fuzz {

// A schedule to run.
struct Candidate {
  schedule::Schedule schedule;
  // Identity within the campaign: a candidate whose key was proposed before
  // is dropped. Made of sites, not of record indices, so that the same
  // alternative seen in two runs is one ("alt-partner recv a.go:12 <- send
  // a.go:20").
  std::string key;
  std::string strategy;  // who proposed it (progress and docs)
};

// One run of the test, analysed (pipeline/analyze_trace.h).
struct AnalysedRun {
  const trace::Trace& t;
  const std::string& trace_dir;
  const hb::HappensBefore& hb;  // built from t
  const std::vector<report::Finding>& findings;  // all detectors on t
  // Every random choice a strategy makes comes from here: the run's own
  // generator, derived from the campaign's -seed and the run's number
  // (rng.h), so the same seed and the same runs give the same proposals.
  Rng& rng;
  // The candidate this run followed (its schedule, key and strategy;
  // "free" for a free run, "corpus" for a schedule of the corpus), and
  // whether the run added coverage. A strategy mutates the schedules that
  // added coverage further (GoPie's chains, GFuzz's sets of preferences);
  // a corpus schedule added coverage in an earlier campaign.
  const Candidate* ran = nullptr;
  bool added_coverage = false;

  // Whether ran is a schedule worth mutating: it added coverage now or in
  // an earlier campaign (the corpus).
  bool RanIsKept() const {
    return ran != nullptr && ran->strategy != "free" &&
           (added_coverage || ran->strategy == "corpus");
  }

  // The engine without unlock->lock edges (hb::BuildWithoutMutexEdges),
  // built the first time a strategy asks (lock orders, conflicting
  // pairs) and shared by the strategies that ask about the same run;
  // nullptr when it cannot be built.
  const hb::HappensBefore* Weak() const {
    if (!weak_tried_) {
      weak_tried_ = true;
      weak_ = hb::BuildWithoutMutexEdges(hb, hb.options());
    }
    return weak_.get();
  }
  mutable std::unique_ptr<hb::HappensBefore> weak_{};
  mutable bool weak_tried_ = false;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual const char* Name() const = 0;
  // Appends the schedules the run suggests. Called from one thread at a
  // time.
  virtual void Propose(const AnalysedRun& run, std::vector<Candidate>* out) = 0;
  // A campaign (of another test) starts: a strategy that remembers what it
  // proposed forgets it here. The strategies of one command serve each of
  // its tests' campaigns in turn.
  virtual void Begin() {}
};

// The strategies `gordian fuzz` combines, in the order their proposals of
// one run join the worklist.
std::vector<std::unique_ptr<Strategy>> DefaultStrategies();

}  // namespace gordian::fuzz
