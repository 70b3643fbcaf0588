// This file defines what the predictive detectors (predict.h) share while
// running over one trace: the happens-before engine, a lazily built second
// engine without mutex edges (sharing the trace's index), the finding
// helpers of occurred_index.h, per-goroutine locksets, a work
// budget, and de-duplication of the findings they emit.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ranges>
#include <string>
#include <unordered_map>
#include <vector>

#include "gordian/detect/occurred_index.h"
#include "gordian/detect/predicted/op_runs.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"

namespace gordian::detect {

// The names every predictive detector uses.
using hb::ChanDir;
using hb::ObjClass;
using trace::Kind;

class PredictContext {
 public:
  PredictContext(const trace::Trace& trace, const hb::HappensBefore& engine,
                 const PredictOptions& options, std::vector<report::Finding>* out)
      : t(trace), hb(engine), ops(engine.ops()), opt(options), out_(out) {}

  const trace::Trace& t;
  const hb::HappensBefore& hb;
  const hb::OpIndex& ops;
  const PredictOptions& opt;

  const trace::Record& rec(RecordId i) const { return t.records[i]; }
  GoroutineIndex Gor(RecordId i) const { return ops.GoroutineIndexOf(i); }
  // Every goroutine index of the trace, in order.
  auto Goroutines() const {
    return std::views::iota(uint32_t{0}, static_cast<uint32_t>(t.goroutines.size())) |
           std::views::transform([](uint32_t k) { return GoroutineIndex(k); });
  }
  const trace::Goroutine& GoroutineAt(GoroutineIndex g) const {
    return t.goroutines[trace::Value(g)];
  }

  // Whether the engine has no clocks for the object: the analysis shed it
  // to stay within its memory budget (pipeline/object_shedding.h,
  // hb::HbOptions::unclocked names all its records), or no detector needs
  // them (detect/clock_needs.h, hb::HbOptions::unneeded, which exempts
  // the first record of an object only when it exempts all of them; an
  // object partly exempt answers "ordered" about its exempt records, which
  // no bug or warning detector asks about). Detectors skip such objects: every question about them would be
  // answered "ordered", and a search for a concurrent pair would run to its
  // query budget for nothing.
  bool Unclocked(ObjClass cls, uint32_t dense) const {
    auto recs = ops.Ops(cls, dense);
    if (recs.empty()) return false;
    for (const hb::RecordMask* mask :
         {hb.options().unclocked.get(), hb.options().unneeded.get()}) {
      if (mask != nullptr && !mask->empty() && (*mask)[recs.front()]) return true;
    }
    return false;
  }
  // The close of channel ch (dense), or kNoRecord when it was not closed
  // or is Unclocked: the channels the closed-channel predictions ask about.
  uint32_t ClockedClose(uint32_t ch) const {
    if (Unclocked(ObjClass::Chan, ch)) return hb::kNoRecord;
    return ops.Channel(ch).close_rec;
  }
  // Whether the trace has no lock object (Mutex or RWMutex): the lock-set
  // detectors, which walk every goroutine's records, then have nothing to
  // find (chan-heavy traces: four passes over every record for nothing).
  bool NoLocks() const { return ops.Count(ObjClass::Mutex) == 0 && ops.Count(ObjClass::RWMutex) == 0; }
  // Whether some record of the object has no clock (Unclocked, or
  // clock_needs.h left some of its records without one). The information
  // scenarios (alternatives.cc, contention.cc), which compare operations
  // across the whole object, skip it: their searches would be answered
  // "ordered" and run to their query budget for nothing.
  bool PartlyUnclocked(ObjClass cls, uint32_t dense);

  // Happens-before without unlock -> lock edges (lock-order and mixed
  // deadlock analyses), built on first use; null if it cannot be built.
  const hb::HappensBefore* Weak();
  // Locations, tests, descriptions.
  const OccurredIndex& Index();

  // A predicted finding whose primary location is rec.
  report::Finding NewFinding(report::FindingKind kind, RecordId primary, report::Role role);
  void AddLocation(report::Finding* f, RecordId rec, report::Role role);
  void AddStep(report::Finding* f, RecordId rec, report::Role role, std::string what,
               bool blocks = false);
  // Emits f unless a finding with the same dedup key was emitted; then only
  // counts the occurrence.
  void Emit(report::Finding f);

  // A record of a finding and the role it plays there; with what, a step.
  struct At {
    RecordId rec;
    report::Role role;
  };
  struct StepAt {
    RecordId rec;
    report::Role role;
    std::string what;
    bool blocks = false;  // the other schedule blocks it forever (report::Step::blocks)
  };
  // Emits the finding of kind whose locations (and rewrite records) are at,
  // the first one primary, with message and the steps in the order of the
  // other schedule: NewFinding, AddLocation, AddStep and Emit in one call.
  void Report(report::FindingKind kind, std::initializer_list<At> at, std::string message,
              std::initializer_list<StepAt> steps);

  // Per-direction, per-goroutine operation runs of a channel (cached).
  const ChanRuns& Runs(uint32_t dense_chan);

  // "x.go:12" of a record (for dedup keys of the detectors' own searches).
  std::string Where(RecordId rec) { return Index().Where(rec); }
  std::string Chan(uint32_t dense_chan);  // "the channel made at x.go:5"

  // Work accounting: false once the detector's share of the budget is spent.
  bool Spend(uint64_t units) {
    work_ += units;
    return work_ <= limit_;
  }
  void SetShare(uint64_t limit) {
    work_ = 0;
    limit_ = limit;
  }
  bool exhausted() const { return work_ > limit_; }

 private:
  std::vector<report::Finding>* out_;
  std::unique_ptr<OccurredIndex> index_;
  std::unique_ptr<hb::HappensBefore> weak_;
  bool weak_failed_ = false;
  std::unordered_map<std::string, size_t> emitted_;
  std::unordered_map<uint32_t, ChanRuns> runs_;  // dedup key -> index in out_
  // PartlyUnclocked per class and object: -1 not computed yet, else 0 or 1.
  std::array<std::vector<int8_t>, trace::kNumObjClasses> partly_unclocked_;
  uint64_t work_ = 0, limit_ = ~0ull;
};

// Held locks per goroutine, replayed in program order (thread-local, no
// happens-before needed). A lock is (class, dense object).
struct HeldLock {
  uint64_t key = 0;      // (ObjClass << 32) | dense
  RecordId acquire = 0;  // the Lock/RLock/TryLock record
  bool reader = false;
};
inline uint64_t LockKey(hb::ObjClass c, uint32_t dense) { return (uint64_t(c) << 32) | dense; }

// Calls visit(rec, held) for every record of goroutine index g, with the
// locks held just before it. Cond.Wait releases and re-takes the innermost
// lock (as the engine assumes); unlocks drop the most recent matching lock.
template <typename Visit>
void WalkLocksets(const PredictContext& c, GoroutineIndex g, std::vector<HeldLock>* held,
                  Visit&& visit);

// Mixed deadlock's questions (mixed_deadlock.cc), also asked by
// WeakUnneeded: the partner Y of a completed plain send or receive x on an
// unbuffered channel (or the close a receive saw), when Y's operation
// completed in another goroutine; kNoRecord else.
RecordId MixedDeadlockPartner(const hb::OpIndex& ops, RecordId x);
// The latest acquisition of lock `key` by goroutine index g before record
// `before`, provided g released it again before `before`; kNoRecord else.
RecordId ReleasedAcquireBefore(const hb::OpIndex& ops, uint64_t key, bool reader_held,
                               GoroutineIndex g, RecordId before);
// Sets in keep the lock requests lock order asks the engine without lock
// edges about: the first instances of each lock dependency (lock_order.cc).
void MarkLockOrderRequests(const PredictContext& c, hb::RecordMask* keep);
// The records the engine without lock edges (PredictContext::Weak) need
// not keep a clock for (weak_unneeded.cc).
std::shared_ptr<const hb::RecordMask> WeakUnneeded(const PredictContext& c);

// One detector per file (predict.h lists them).
void PredictSendOnClosed(PredictContext& c);
void PredictRecvOnClosed(PredictContext& c);
void PredictNegativeWaitGroup(PredictContext& c);
void PredictUnlockOfUnlocked(PredictContext& c);
void PredictLockOrder(PredictContext& c);
void PredictRecursiveRLock(PredictContext& c);
void PredictMixedDeadlock(PredictContext& c);
void PredictSelectLeaks(PredictContext& c);
void PredictTestingAfterEnd(PredictContext& c);
void InfoAlternatives(PredictContext& c);
void InfoContention(PredictContext& c);

// ---------------------------------------------------------------------------

template <typename Visit>
void WalkLocksets(const PredictContext& c, GoroutineIndex g, std::vector<HeldLock>* held,
                  Visit&& visit) {
  using trace::Kind;
  held->clear();
  const trace::Goroutine& gr = c.GoroutineAt(g);
  for (RecordId i = gr.begin; i < gr.end; ++i) {
    const trace::Record& r = c.t.records[i];
    visit(i, *held);
    hb::ObjClass cls = hb::ClassOf(r.kind);
    uint32_t d = c.ops.ObjectOf(i);
    switch (r.kind) {
      case Kind::MutexLock: case Kind::RWLock: case Kind::RLock:
        if (r.tpost != 0 && d != hb::kNoObject) held->push_back({LockKey(cls, d), i, r.kind == Kind::RLock});
        break;
      case Kind::MutexTryLock: case Kind::RWTryLock: case Kind::RWTryRLock:
        if ((r.flags & trace::kSuccess) && d != hb::kNoObject) {
          held->push_back({LockKey(cls, d), i, r.kind == Kind::RWTryRLock});
        }
        break;
      case Kind::MutexUnlock: case Kind::RWUnlock: case Kind::RUnlock: {
        if (r.flags & trace::kFailed || d == hb::kNoObject) break;
        bool reader = r.kind == Kind::RUnlock;
        for (size_t k = held->size(); k-- > 0;) {
          if ((*held)[k].key == LockKey(cls, d) && (*held)[k].reader == reader) {
            held->erase(held->begin() + k);
            break;
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace gordian::detect
