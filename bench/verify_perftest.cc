// Model checker throughput (gordian verify, docs/verify.md): states per second
// and peak memory of verify::Check on generated models of growing size,
// with partial-order reduction on and off side by side. Each run is its own
// process, so its peak resident memory (wait4's ru_maxrss) is its own.
//
// Models (test_models.h's generated ones):
//   prodcons/K/M/C   K producers and K consumers, M items each, through a
//                    channel of capacity C; main waits on a WaitGroup
//   workers/N/M      N workers, each M times: Lock, a local update, Unlock;
//                    a WaitGroup
//   philosophers/N   N philosophers, fork i then fork i+1: the lock-order
//                    deadlock is found
//
//   verify_perftest                  every model
//   verify_perftest --only workers   names containing the text
//   verify_perftest --max-states N   (default 5,000,000)
//   verify_perftest --no-dead        without dead-variable reduction
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "in_child.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/test_models.h"

namespace {

using namespace gordian::verify;
using namespace gordian::verify::testing;
using K = InstrKind;

struct Bench {
  std::string name;
  Model model;
};

struct Result {
  uint64_t states, transitions, violations;
  bool bounded;
  double wall, cpu;
};

double Cpu() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  uint64_t max_states = 5'000'000;
  bool dead = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--max-states") && i + 1 < argc) max_states = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--no-dead")) dead = false;
    else {
      std::fprintf(stderr, "usage: verify_perftest [--only TEXT] [--max-states N] [--no-dead]\n");
      return 2;
    }
  }
  std::vector<Bench> benches;
  for (auto [k, m, c] : {std::tuple{1, 4, 1}, {2, 3, 2}, {3, 2, 2}, {3, 3, 2}, {4, 2, 2}, {4, 3, 2}})
    benches.push_back({"prodcons/" + std::to_string(k) + "/" + std::to_string(m) + "/" + std::to_string(c),
                       ProdCons(k, m, c)});
  for (auto [n, m] : {std::pair{2, 3}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}})
    benches.push_back({"workers/" + std::to_string(n) + "/" + std::to_string(m), Workers(n, m)});
  for (int n : {3, 5, 6, 7, 8}) benches.push_back({"philosophers/" + std::to_string(n), Philosophers(n)});

  std::printf("%-20s %4s %10s %11s %4s %3s %8s %11s %8s\n", "model", "por", "states", "transitions", "viol",
              "bnd", "cpu s", "states/s", "peak MB");
  for (const Bench& b : benches) {
    if (!only.empty() && b.name.find(only) == std::string::npos) continue;
    for (bool por : {true, false}) {
      Result r{};
      const gordian::bench::ChildRun run = gordian::bench::InChild(
          [&] {
            CheckOptions o;
            o.partial_order_reduction = por;
            o.dead_variable_reduction = dead;
            o.max_states = max_states;
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = Cpu();
            CheckResult c = Check(b.model, o);
            return Result{c.states, c.transitions, c.violations.size(), c.bounded,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                          Cpu() - c0};
          },
          &r);
      if (!run.ok) {
        std::printf("%-20s %4s FAILED (status %d)\n", b.name.c_str(), por ? "on" : "off", run.status);
        continue;
      }
      std::printf("%-20s %4s %10llu %11llu %4llu %3s %8.2f %11.0f %8.0f\n", b.name.c_str(), por ? "on" : "off",
                  (unsigned long long)r.states, (unsigned long long)r.transitions,
                  (unsigned long long)r.violations, r.bounded ? "yes" : "", r.cpu,
                  r.cpu > 0 ? r.states / r.cpu : 0.0, run.max_rss_kb / 1024.0);
      std::fflush(stdout);
    }
  }
  return 0;
}
