// This file defines the happens-before engine: it walks the thread-local
// traces of a recorded run in stamp order (clock_builder.cc; Sulzmann and
// Stadtmüller, "Two-Phase Dynamic Analysis of Message-Passing Go Programs
// based on Vector Clocks") and gives every record a pre and a post vector clock, so that
// analyses can ask whether two operations are ordered in every schedule that
// keeps the run's communication partners, or could happen in either order.
//
// What "a happens before b" means here: a's post event (its completion) is
// ordered before b's pre event (its start). For a blocking acquire such as a
// receive, the sender's clock reaches the receive's post only, so the exact
// partners of a communication are concurrent with each other, as in
// Sulzmann and Stadtmüller's analysis (their pre clocks are incomparable).
//
// Rules (each is documented where it is implemented, in clock_builder*.cc):
//   spawn            GoSpawn -> the child's first record
//   unbuffered chan  send and receive synchronise both ways (exact partners
//                    by value sequence number)
//   buffered chan    k slots carrying clocks: the i-th receive happens after
//                    the i-th send, the (i+k)-th send after the i-th receive
//   close            close -> receives that observed it closed, and sends
//                    that panicked on it
//   select           the chosen case acts as that channel operation; default
//                    and blocked selects only tick the goroutine's clock
//   mutex / RWMutex  unlock -> next lock; writer unlock -> readers; reader
//                    unlocks -> next writer (option: off for lock-order work)
//   WaitGroup        every Add/Done -> the Wait that saw the counter at 0
//                    (none if an Add is not ordered before that Wait)
//   Once             the Do that ran f (after f's body) -> every other Do
//   Cond             Signal/Broadcast -> the Wait it woke (exact partner by
//                    ticket); Wait releases and re-acquires the
//                    innermost mutex its goroutine holds
//   tests            TestEnd -> every later TestStart (sequential tests)
//
// Processing order: records are processed goroutine by goroutine, always
// advancing the goroutine whose next event has the smallest global stamp
// (tpost for completed records, tpre for records that never completed and
// for the pre step of Once.Do and Cond.Wait). An event whose dependency is
// not yet processed (its send, its rendezvous partner, a free mutex, a zero
// WaitGroup counter, ...) parks its goroutine until the dependency is
// processed, so races between the stamp and the operation in the recorder do
// not lose edges. Records that never completed (tpost == 0) get a pre clock
// only; they release nothing. If every remaining goroutine is parked (an
// inconsistent trace), the engine forces the parked event with the smallest
// stamp without its dependency and says so in warnings().
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <span>
#include <vector>

#include "gordian/hb/clock_store.h"
#include "gordian/hb/op_index.h"
#include "gordian/hb/record_mask.h"
#include "gordian/hb/snapshot_ids.h"
#include "gordian/hb/vector_clock.h"
#include "gordian/trace/trace.h"

namespace gordian::hb {

struct HbOptions {
  // Unlock -> next lock edges. Lock-order and mixed-deadlock analyses turn
  // them off: the observed order of critical sections is not forced.
  bool mutex_edges = true;
  // TestEnd -> later TestStart (go test runs top-level tests one by one).
  bool test_order = true;
  // Budget for stored clock snapshots; past it, records get no clock and are
  // treated as ordered with everything (a warning says so, and
  // RecordsWithoutClock() counts them). The analysis of a trace sets it to
  // what its memory budget leaves (pipeline/memory_budget.h).
  uint64_t clock_budget_bytes = 8ull << 30;
  // Limit on all the engine's clocks, live ones (goroutines, objects) and
  // stored snapshots together (0: none). Past it Build stops and fails with
  // HbStats::over_limit set: live clocks grow with goroutines x what they
  // synchronise with, whatever the snapshot budget says.
  uint64_t memory_limit_bytes = 0;
  // Records that get no clock (a bit per record; null or empty: every record
  // has one). They are treated as past the clock budget: ordered with
  // everything, RecordsWithoutClock() counts them. The analysis of a trace
  // names the operations of its largest objects here when their clocks do
  // not fit (pipeline/object_shedding.h); skipped records freeze nothing,
  // so they cost the engine no clock nodes. A SelectCase stands for its
  // Select: name the Select record.
  std::shared_ptr<const RecordMask> unclocked;
  // Records whose clocks no detector reads (a bit per record; null or empty:
  // none): detect/clock_needs.h decides it from the index before the
  // build. They get no clock either, and answer as unclocked records do,
  // but are no loss: RecordsWithoutClock() does not count them. A caller
  // that needs every clock (the rewrite of a prediction, the fuzzer's
  // strategies) builds without it.
  std::shared_ptr<const RecordMask> unneeded;
  // The goroutines whose entries some question reads (1 per goroutine
  // index; null or empty: every goroutine): detect/read_goroutines.h
  // decides it. Every question is Before(a, b) and reads only b's entry
  // for a's goroutine, and joins are pointwise, so clocks restricted to
  // these entries are exact for them: the engine's clocks have one entry
  // per read goroutine (dense rows up to ClockStore::kDenseWidth of them,
  // whatever the trace's width). The others still have clocks and still
  // acquire and release (they carry knowledge between objects) but no
  // entry of their own. A question whose a is outside them answers as an
  // unclocked record does (ordered) and is counted
  // (QuestionsOutsideReadGoroutines). The engine adds the goroutines it
  // reads itself (those with a positive WaitGroup Add: a Wait's rule asks
  // whether every Add is ordered before it).
  std::shared_ptr<const std::vector<uint8_t>> read_goroutines;
  // Stop Build (false, HbStats::over_limit) when the snapshots pass
  // clock_budget_bytes before this many replay steps, instead of going on
  // without clocks (0: never): for a caller that would rather build again
  // with fewer clocked records than lose the clocks of most records.
  uint64_t stop_if_exhausted_before = 0;
  // Called every 65536 replay steps with (steps, records): the progress
  // line of long analyses. Steps may pass records slightly (a goroutine's
  // end is a step).
  std::function<void(uint64_t steps, uint64_t records)> progress;
};

struct HbStats {
  uint64_t records = 0;
  uint32_t goroutines = 0;
  uint64_t snapshots = 0;
  uint64_t clock_bytes = 0;   // snapshot arena
  uint64_t index_bytes = 0;   // per-record arrays and the operation index
  uint64_t parked = 0;        // events that waited for a dependency
  uint64_t forced = 0;        // events processed without their dependency
  double seconds = 0;         // wall time of Build
  bool over_limit = false;    // Build stopped at HbOptions::memory_limit_bytes
  uint64_t steps = 0;         // replay steps done when it stopped there
  uint64_t engine_bytes = 0;  // all clocks, live and stored (what that limit bounds)
  uint64_t collections = 0;   // tree mode: collections of unreachable clock nodes
  // Tree mode, at the last collection: the nodes the live clocks of
  // goroutines and objects reach (0: none ran). When these alone pass the
  // memory limit, storing fewer snapshots cannot bring the engine under it.
  uint64_t live_clock_bytes = 0;
};

class HappensBefore {
 public:
  explicit HappensBefore(HbOptions opt = {});
  ~HappensBefore();
  HappensBefore(const HappensBefore&) = delete;
  HappensBefore& operator=(const HappensBefore&) = delete;

  // Builds the clocks of t. The trace must outlive this object. Returns false with a
  // message only for traces it cannot analyse at all (e.g. records outside
  // every goroutine range); oddities it can work around go to warnings().
  bool Build(const trace::Trace& t, std::string* err);
  // Builds the clocks of ops.trace() with a prebuilt index of it (one index per trace:
  // pipeline/analyze_trace.cc). ops must outlive this object.
  bool Build(const OpIndex& ops, std::string* err);

  const trace::Trace& trace() const { return *t_; }
  const OpIndex& ops() const { return *ops_; }
  const HbOptions& options() const { return opt_; }
  const HbStats& stats() const { return stats_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  uint32_t num_goroutines() const { return num_g_; }
  // The entries the clocks have (HbOptions::read_goroutines and the
  // engine's own; num_goroutines() without a projection).
  uint32_t clock_width() const { return clock_width_; }
  // Whether goroutine index g has an entry in the clocks.
  bool ReadsGoroutine(uint32_t g) const { return SlotOf(g) != kNoSlot; }
  // Questions (Before, Knows) about a goroutine without an entry, asked of
  // a clocked record: answered "ordered" though the clocks cannot tell. A
  // correct read set keeps this 0 (detect/read_goroutines_test.cc). Shared
  // with the engine BuildWithoutMutexEdges makes from this one.
  uint64_t QuestionsOutsideReadGoroutines() const {
    return outside_questions_->load(std::memory_order_relaxed);
  }

  // Record facts. SelectCase records stand for their Select in all queries.
  bool Completed(RecordId rec) const;
  bool ClockKnown(RecordId rec) const;
  // Records whose clocks were not stored (the clock budget ran out, or
  // HbOptions::unclocked named them): the predictions about them are
  // dropped, since Before() says "ordered". Not the records
  // HbOptions::unneeded names, which no detector asks about.
  uint64_t RecordsWithoutClock() const;
  // Whether the stored clocks reached HbOptions::clock_budget_bytes.
  bool ClockBudgetExhausted() const { return store_.exhausted(); }
  Epoch PreEpoch(RecordId rec) const;
  Epoch PostEpoch(RecordId rec) const;
  // What rec's pre (post) clock knows of goroutine gid.
  Epoch Knows(RecordId rec, bool post, uint32_t gid) const;
  // Appends to out the goroutine indices (not rec's own) of which rec's pre
  // clock may know more than prev's (prev an earlier record of rec's
  // goroutine, a record that happens before rec, or kNoRecord for the zero
  // clock): a superset of those whose entry rose, from the changed paths of
  // the two snapshots. False (out
  // unchanged) when either has no stored clock: then any goroutine may have.
  // Lets a caller that asks, for every record, what it knows of every
  // goroutine ask only where the answer can have changed.
  bool KnowledgeGained(RecordId prev, RecordId rec, std::vector<uint32_t>* out) const;
  VectorClock PreClock(RecordId rec) const;
  VectorClock PostClock(RecordId rec) const;  // == PreClock for records that never completed

  // a's completion happens before b's start in every schedule consistent
  // with the run's partners. False if a never completed. Conservative: true
  // when a clock was not stored (budget).
  bool Before(RecordId a, RecordId b) const;
  // The largest k with Before(recs[k], b), -1 if none, where recs are
  // records of one goroutine in program order (so that the answers are
  // true up to some k, false after it). What b knows of that goroutine is
  // read once, not once per record the search looks at: the rewrite asks
  // this of every goroutine for each operation of a bug.
  int64_t LastBefore(std::span<const RecordId> recs, RecordId b) const;
  // Neither Before(a, b) nor Before(b, a); never for records of the same
  // goroutine or for a record and itself.
  bool Concurrent(RecordId a, RecordId b) const {
    return ops().GoroutineIndexOf(a) != ops().GoroutineIndexOf(b) && !Before(a, b) &&
           !Before(b, a);
  }

  // Exact communication partner (see OpIndex::Partner).
  RecordId Partner(RecordId rec) const { return ops().Partner(rec); }

 private:
  friend class Builder;
  friend std::unique_ptr<HappensBefore> BuildWithoutMutexEdges(const HappensBefore& hb,
                                                               HbOptions options);
  // Points ops_ at the shared index when it indexes t, else indexes t
  // itself; adds the index's warnings (clock_builder.cc, before its walk).
  void IndexTrace(const trace::Trace& t);
  void MaterializeAll(uint32_t snap, VectorClock* vc) const;
  HbOptions opt_;
  const trace::Trace* t_ = nullptr;
  uint32_t num_g_ = 0;
  // Goroutine index -> its entry in the clocks (kNoSlot: none), and back;
  // both empty without a projection (entry g is goroutine index g).
  static constexpr uint32_t kNoSlot = 0xffffffffu;
  std::vector<uint32_t> slot_;
  std::vector<uint32_t> slot_goroutine_;
  uint32_t SlotOf(uint32_t g) const { return slot_.empty() ? g : slot_[g]; }
  uint32_t clock_width_ = 0;
  std::shared_ptr<std::atomic<uint64_t>> outside_questions_ =
      std::make_shared<std::atomic<uint64_t>>(0);
  // The operation index: the caller's (Build(ops)) or own_ops_.
  const OpIndex* shared_ops_ = nullptr;
  OpIndex own_ops_;
  const OpIndex* ops_ = &own_ops_;
  ClockStore store_;
  SnapshotIds snaps_;                            // per record with a clock
  std::vector<RecordId> gbegin_;                // per goroutine index: its first record
  // Once.Do records that ran f: their post comes after f's body.
  std::vector<std::pair<RecordId, Epoch>> once_post_;  // (rec, post epoch), sorted
  std::vector<std::string> warnings_;
  HbStats stats_;
};

// The same run's happens-before without unlock -> lock edges (lock-order,
// mixed-deadlock and recursive read-lock analyses, and their rewrites),
// over hb's own index: one index per trace. options is hb.options() or a
// copy with tighter budgets; mutex_edges is turned off here. Null when it
// cannot be built (a budget, an inconsistent trace).
std::unique_ptr<HappensBefore> BuildWithoutMutexEdges(const HappensBefore& hb, HbOptions options);

}  // namespace gordian::hb
