// Tests of the parallel analysis pool (analysis_pool.h) with fake tasks
// that only record what they were given: how many run at once, the
// budgets they hold together, the second attempt of a task over its share.
#include "gordian/pipeline/analysis_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace gordian::pipeline {
namespace {

// What the fake tasks saw, updated as they enter and leave.
struct Watch {
  std::mutex mu;
  uint64_t held = 0, peak_held = 0;
  int running = 0, peak_running = 0;
  std::vector<std::pair<size_t, uint64_t>> attempts;  // (task, budget)
  void Enter(size_t k, uint64_t budget) {
    std::lock_guard<std::mutex> l(mu);
    held += budget;
    running++;
    peak_held = std::max(peak_held, held);
    peak_running = std::max(peak_running, running);
    attempts.push_back({k, budget});
  }
  void Leave(uint64_t budget) {
    std::lock_guard<std::mutex> l(mu);
    held -= budget;
    running--;
  }
};

TEST(AnalysisPool, OneJobRunsEveryTaskInOrderWithTheWholeBudgetOnTheCallingThread) {
  Watch w;
  PoolOptions opt{.jobs = 1, .memory = 1000};
  std::thread::id caller = std::this_thread::get_id();
  RunAnalysisPool(4, opt, [&](size_t k, uint64_t budget) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    w.Enter(k, budget);
    w.Leave(budget);
    // Over budget with the whole: there is no more to give, no retry.
    return Attempt::kOverBudget;
  });
  std::vector<std::pair<size_t, uint64_t>> want = {{0, 1000}, {1, 1000}, {2, 1000}, {3, 1000}};
  EXPECT_EQ(w.attempts, want);
}

TEST(AnalysisPool, TasksRunAtOnceWithinTheirSharesAndNeverExceedTheBudget) {
  Watch w;
  std::atomic<int> arrived{0};
  RunAnalysisPool(12, {.jobs = 3, .memory = 900}, [&](size_t k, uint64_t budget) {
    w.Enter(k, budget);
    // The first three wait for each other (a second at most): they can
    // only all arrive when they run at once.
    if (k < 3) {
      arrived++;
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (arrived.load() < 3 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    w.Leave(budget);
    return Attempt::kDone;
  });
  EXPECT_EQ(arrived.load(), 3);
  EXPECT_EQ(w.peak_running, 3);
  EXPECT_LE(w.peak_held, 900u);
  std::multiset<size_t> ran;
  for (auto [k, budget] : w.attempts) {
    ran.insert(k);
    EXPECT_EQ(budget, 300u) << k;
  }
  std::multiset<size_t> want;
  for (size_t k = 0; k < 12; k++) want.insert(k);
  EXPECT_EQ(ran, want);  // each once
}

TEST(AnalysisPool, ATaskOverItsShareRunsAgainAloneWithTheWholeBudget) {
  Watch w;
  std::atomic<int> alone_with_whole{0};
  RunAnalysisPool(8, {.jobs = 2, .memory = 1000}, [&](size_t k, uint64_t budget) {
    w.Enter(k, budget);
    if (budget == 1000) {
      std::lock_guard<std::mutex> l(w.mu);
      if (w.running == 1) alone_with_whole++;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    w.Leave(budget);
    return k % 3 == 0 && budget < 1000 ? Attempt::kOverBudget : Attempt::kDone;
  });
  EXPECT_LE(w.peak_held, 1000u);
  // Tasks 0, 3, 6: first with the share, then with the whole, alone.
  EXPECT_EQ(alone_with_whole.load(), 3);
  size_t whole = 0;
  for (auto [k, budget] : w.attempts) {
    if (budget == 1000) {
      whole++;
      EXPECT_EQ(k % 3, 0u) << k;
    } else {
      EXPECT_EQ(budget, 500u);
    }
  }
  EXPECT_EQ(whole, 3u);
  EXPECT_EQ(w.attempts.size(), 11u);
}

TEST(AnalysisPool, StopStartsNoMoreTasks) {
  PoolOptions opt{.jobs = 2, .memory = 100};
  std::atomic<bool> stop{false};
  std::atomic<int> started{0};
  opt.stop = [&] { return stop.load(); };
  RunAnalysisPool(50, opt, [&](size_t, uint64_t) {
    if (++started == 3) stop = true;
    return Attempt::kDone;
  });
  // The two workers may each have taken one more before they saw it.
  EXPECT_GE(started.load(), 3);
  EXPECT_LE(started.load(), 4);
}

TEST(MemoryShares, TheWholeWaitsForTheSharesAndNewSharesWaitBehindIt) {
  MemoryShares s(1000, 2);
  EXPECT_EQ(s.share(), 500u);
  s.AcquireShare();
  std::atomic<bool> whole{false}, second_share{false};
  std::thread wants_whole([&] {
    s.AcquireWhole();
    whole = true;
  });
  // Until wants_whole is waiting, a share is still free; after, none is.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread wants_share([&] {
    s.AcquireShare();
    second_share = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(whole.load());
  EXPECT_FALSE(second_share.load());
  s.ReleaseShare();
  wants_whole.join();
  EXPECT_TRUE(whole.load());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(second_share.load());
  s.ReleaseWhole();
  wants_share.join();
  EXPECT_TRUE(second_share.load());
  s.ReleaseShare();
  EXPECT_EQ(s.PeakHeld(), 1000u);
}

}  // namespace
}  // namespace gordian::pipeline
