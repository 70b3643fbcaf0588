// This file implements the parallel analysis of traces within one memory
// budget (analysis_pool.h).
#include "gordian/pipeline/analysis_pool.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace gordian::pipeline {

MemoryShares::MemoryShares(uint64_t total, int jobs)
    : total_(std::max<uint64_t>(total, 1)),
      share_(std::max<uint64_t>(total_ / static_cast<uint64_t>(std::max(jobs, 1)), 1)) {}

void MemoryShares::AcquireShare() {
  std::unique_lock<std::mutex> l(mu_);
  // Waiting behind a thread that wants the whole keeps it from starving.
  changed_.wait(l, [&] {
    return !whole_held_ && whole_wanted_ == 0 && (shares_held_ + 1) * share_ <= total_;
  });
  shares_held_++;
  peak_ = std::max(peak_, shares_held_ * share_);
}

void MemoryShares::ReleaseShare() {
  {
    std::lock_guard<std::mutex> l(mu_);
    shares_held_--;
  }
  changed_.notify_all();
}

void MemoryShares::AcquireWhole() {
  std::unique_lock<std::mutex> l(mu_);
  whole_wanted_++;
  changed_.wait(l, [&] { return !whole_held_ && shares_held_ == 0; });
  whole_wanted_--;
  whole_held_ = true;
  peak_ = std::max(peak_, total_);
}

void MemoryShares::ReleaseWhole() {
  {
    std::lock_guard<std::mutex> l(mu_);
    whole_held_ = false;
  }
  changed_.notify_all();
}

uint64_t MemoryShares::PeakHeld() const {
  std::lock_guard<std::mutex> l(mu_);
  return peak_;
}

void RunAnalysisPool(size_t tasks, const PoolOptions& opt,
                     const std::function<Attempt(size_t k, uint64_t budget)>& task,
                     MemoryShares* shares) {
  int jobs = std::max(opt.jobs, 1);
  std::unique_ptr<MemoryShares> own;
  if (shares == nullptr) {
    own = std::make_unique<MemoryShares>(opt.memory, jobs);
    shares = own.get();
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (;;) {
      if (opt.stop && opt.stop()) return;
      size_t k = next.fetch_add(1);
      if (k >= tasks) return;
      shares->AcquireShare();
      Attempt a = Attempt::kDone;
      try {
        a = task(k, shares->share());
      } catch (...) {
        shares->ReleaseShare();
        throw;
      }
      shares->ReleaseShare();
      if (a == Attempt::kOverBudget && shares->share() < shares->total()) {
        if (opt.stop && opt.stop()) return;
        shares->AcquireWhole();
        try {
          task(k, shares->total());
        } catch (...) {
          shares->ReleaseWhole();
          throw;
        }
        shares->ReleaseWhole();
      }
    }
  };
  size_t threads = std::min<size_t>(static_cast<size_t>(jobs), tasks);
  if (threads <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t i = 0; i < threads; i++) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
}

int DefaultJobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace gordian::pipeline
