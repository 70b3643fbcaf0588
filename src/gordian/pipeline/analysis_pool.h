// This file owns the parallel analysis of a run's traces (`gordian test
// -p N`): at most N analyses at once, sharing one memory budget (-mem)
// instead of multiplying it.
//
// Each analysis starts with a share of the budget, total/N. An analysis
// that fits in its share has the result of an unbounded one (memory_budget.h),
// which is also what the whole budget gives it; one that had to drop
// something is given up and run again with the whole budget, alone (new
// shares wait meanwhile). So at any moment the budgets of the running
// analyses add up to at most the total, and every trace gets exactly the
// result a one-at-a-time run (-p 1, where the share is the whole) gives it.
// The caller keeps each task's result in its own slot and merges them in
// task order, so the report does not depend on N or on which task ends
// first.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>

namespace gordian::pipeline {

// The admission of analyses to the memory budget (thread-safe).
class MemoryShares {
 public:
  MemoryShares(uint64_t total, int jobs);
  uint64_t total() const { return total_; }
  uint64_t share() const { return share_; }

  // Blocks until a share may be held (none while the whole is held or
  // wanted) and holds it.
  void AcquireShare();
  void ReleaseShare();
  // Blocks until no share and no whole is held, then holds the whole.
  void AcquireWhole();
  void ReleaseWhole();

  // For tests: the largest sum of held budgets seen so far.
  uint64_t PeakHeld() const;

 private:
  uint64_t total_;
  uint64_t share_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  int shares_held_ = 0;
  int whole_wanted_ = 0;  // threads waiting for the whole: new shares wait behind them
  bool whole_held_ = false;
  uint64_t peak_ = 0;
};

struct PoolOptions {
  int jobs = 1;              // analyses at once (>= 1)
  uint64_t memory = 0;       // the budget all of them share (> 0)
  // Checked before each task starts: true stops the pool (an interrupt).
  std::function<bool()> stop;
};

// What one attempt at a task says.
enum class Attempt {
  kDone,         // its result is final
  kOverBudget,   // it dropped something within the budget it was given; run it again with more
};

// Runs task(k, budget) for k in [0, tasks) on min(jobs, tasks) threads
// (jobs 1: on the calling thread, in order), each first with the share
// and, when that is not the whole and it says kOverBudget, again with the
// whole budget, alone. Returns when every started task has ended; tasks not
// started because stop() said so are skipped.
// shares, when given, is used instead of one made from opt (tests read it).
void RunAnalysisPool(size_t tasks, const PoolOptions& opt,
                     const std::function<Attempt(size_t k, uint64_t budget)>& task,
                     MemoryShares* shares = nullptr);

// The default -p: the number of cores, as go test's.
int DefaultJobs();

}  // namespace gordian::pipeline
