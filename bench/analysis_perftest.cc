// Analysis throughput: the happens-before engine alone and with the
// predictive detectors, on synthetic traces of typical shapes
// (synthetic_trace.h), up to 10 million records. Each scenario runs in its
// own process so that its peak memory (getrusage ru_maxrss via wait4) is its
// own. Prints records/s on wall time and on CPU time (the machines are
// shared; CPU time is the steadier number), the clock store's size and the
// peak resident memory, the CPU time of the operation index and, with
// clocks on demand, of deciding the clock needs and the read goroutines
// (all three part of the engine's).
//
// Shapes at 8, 1,000, 10,000 and 100,000 goroutines; mutex-chain and
// worker-pool have a size set by their goroutine count (about 5 and 9
// records per goroutine). Each scenario process gets an address-space limit
// (--mem-mb, default 8000) and a CPU-time limit (--timeout seconds, default
// 300): a scenario that exceeds them is reported as FAILED. --hb-only skips
// the detectors. Each scenario runs twice: with every clock ("all") and
// with only the clocks some detector reads ("demand", detect/clock_needs.h,
// what `gordian test` does); --clocks all|demand picks one.
//
// --budget-mb MB runs each scenario through the analysis of `gordian
// analyze` (pipeline::AnalyzeRead) twice, with the default memory
// budget and with MB, and prints for each the bytes the analysis accounted,
// the findings, the peak resident memory and what the budget dropped.
//
//   analysis_perftest                 all scenarios, 10M records
//   analysis_perftest --events 1000000 --only chan
//   analysis_perftest --only 'worker-pool/100000$' --budget-mb 100
//   analysis_perftest --scenario lock-heavy/10000,fan-out/10000   exact names
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "gordian/detect/clock_needs.h"
#include "gordian/detect/read_goroutines.h"
#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/util/memory.h"
#include "synthetic_trace.h"

namespace {

using namespace gordian;

double Wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double Cpu() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

struct Scenario {
  const char* name;
  // 0 channel-heavy, 1 lock-heavy, 2 fan-out, 3 mutex-chain, 4 worker-pool,
  // 5 lock-heavy-bug
  int shape;
  uint32_t goroutines;
  uint64_t events;  // 0: the --events value
};

bool hb_only = false;  // --hb-only: skip the detectors
std::string clocks = "both";  // --clocks all|demand|both

trace::Trace Generate(const Scenario& s, uint64_t events) {
  return s.shape == 0   ? bench::ChannelHeavy(s.goroutines, events)
         : s.shape == 1 ? bench::LockHeavy(s.goroutines, events)
         : s.shape == 2 ? bench::FanOut(s.goroutines, events)
         : s.shape == 3 ? bench::MutexChain(s.goroutines)
         : s.shape == 4 ? bench::WorkerPool(s.goroutines)
                        : bench::LockHeavy(s.goroutines, events, /*small_bug=*/true);
}

// The analysis of `gordian analyze` within budget bytes (0: the default).
void RunBudgeted(const Scenario& s, uint64_t events, uint64_t budget) {
  trace::Trace t = Generate(s, events);
  pipeline::AnalyzeOptions o;
  o.memory_budget = budget;
  std::vector<std::string> degraded;
  uint64_t used = 0;
  o.degraded = &degraded;
  o.memory_used = &used;
  std::vector<report::Finding> findings;
  double w0 = Wall(), c0 = Cpu();
  pipeline::TraceAnalysis analysis;
  pipeline::AnalyzeRead("analysis_perftest", t, "/nonexistent", o, &analysis, &findings);
  size_t predicted = 0;
  for (const report::Finding& f : findings) predicted += f.status == report::Status::Predicted;
  std::printf(
      "%-22s budget %7.0f MB: accounted %7.0f MB, %.1fs wall %.1fs cpu, %zu findings (%zu "
      "predicted)\n",
      s.name, (budget ? budget : util::DefaultMemoryBudget()) / 1048576.0, used / 1048576.0,
      Wall() - w0, Cpu() - c0, findings.size(), predicted);
  for (const std::string& d : degraded) std::printf("    dropped: %s\n", d.c_str());
  std::fflush(stdout);
}

// on_demand: the clocks no detector reads are not stored
// (detect/clock_needs.h, as `gordian test` builds the engine); the time to
// decide which counts as the engine's.
void RunScenario(const Scenario& s, uint64_t events, bool on_demand) {
  double t0 = Wall();
  trace::Trace t = Generate(s, events);
  double gen = Wall() - t0;
  const double n = double(t.records.size());

  std::string err;
  double w0 = Wall(), c0 = Cpu();
  hb::OpIndex ops;
  ops.Build(t);
  const double index_cpu = Cpu() - c0;
  hb::HbOptions o;
  detect::ClockNeeds needs;
  double needs_cpu = 0, read_cpu = 0;  // deciding the clock needs, the read goroutines
  if (on_demand) {
    double n0 = Cpu();
    needs = detect::UnneededClocks(ops);
    double n1 = Cpu();
    o.unneeded = needs.unneeded;
    o.read_goroutines = detect::ReadGoroutinesOf(ops, needs.unneeded.get()).read;
    needs_cpu = n1 - n0;
    read_cpu = Cpu() - n1;
  }
  hb::HappensBefore hb(o);
  if (!hb.Build(ops, &err)) {
    std::printf("%-22s build failed: %s\n", s.name, err.c_str());
    return;
  }
  double w1 = Wall(), c1 = Cpu();
  std::vector<report::Finding> findings;
  if (!hb_only) detect::PredictBugs(t, hb, &findings);
  double w2 = Wall(), c2 = Cpu();

  const hb::HbStats& st = hb.stats();
  std::printf(
      "%-22s %-6s %7u %10.0f | %6.2f %6.2f M/s | %6.2f %6.2f M/s | %7.0f MB %5.0f MB | %3zu | gen "
      "%.1fs, %.0f%% of records unclocked, clocks of %u entries, index %.0f, needs %.0f + %.0f ms cpu\n",
      s.name, on_demand ? "demand" : "all", s.goroutines, n, n / (w1 - w0) / 1e6,
      n / (c1 - c0) / 1e6, n / (w2 - w0) / 1e6, n / (c2 - c0) / 1e6,
      st.clock_bytes / 1048576.0, st.index_bytes / 1048576.0, findings.size(), gen,
      100.0 * double(needs.records) / n, hb.clock_width(), index_cpu * 1e3, needs_cpu * 1e3, read_cpu * 1e3);
  for (const std::string& w : hb.warnings()) std::printf("    warning: %s\n", w.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t events = 10'000'000;
  uint64_t mem_mb = 8000, timeout = 300;
  bool budgeted = false;
  uint64_t budget_mb = 0;
  std::string only;
  std::string exact;  // --scenario: comma-separated exact names
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--events") && i + 1 < argc) events = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--scenario") && i + 1 < argc) exact = std::string(",") + argv[++i] + ",";
    else if (!std::strcmp(argv[i], "--hb-only")) hb_only = true;
    else if (!std::strcmp(argv[i], "--clocks") && i + 1 < argc) clocks = argv[++i];
    else if (!std::strcmp(argv[i], "--mem-mb") && i + 1 < argc) mem_mb = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--budget-mb") && i + 1 < argc) {
      budgeted = true;
      budget_mb = std::strtoull(argv[++i], nullptr, 10);
    }
    else {
      clocks = "";
    }
    if (clocks != "all" && clocks != "demand" && clocks != "both") {
      std::fprintf(stderr,
                   "usage: analysis_perftest [--events N] [--only NAME-PREFIX] [--scenario NAME,...] "
                   "[--mem-mb MB] [--timeout S] [--hb-only] [--clocks all|demand|both] [--budget-mb MB]\n");
      return 2;
    }
  }
  const Scenario scenarios[] = {
      {"chan-heavy/8", 0, 8, 0},
      {"chan-heavy/64", 0, 64, 0},
      {"lock-heavy/8", 1, 8, 0},
      {"lock-heavy/64", 1, 64, 0},
      {"fan-out/64", 2, 64, 0},
      // 1000 goroutines: clocks 1000 wide, stored as deltas; fewer records.
      {"fan-out/1000", 2, 1000, 2'000'000},
      {"chan-heavy/1000", 0, 1000, 2'000'000},
      // Goroutine scaling (docs/scale.md): clocks wider than 64 use the shared
      // radix-tree representation (tree_clock.h).
      {"chan-heavy/10000", 0, 10'000, 0},
      {"chan-heavy/100000", 0, 100'000, 0},
      {"lock-heavy/1000", 1, 1'000, 0},
      {"lock-heavy/10000", 1, 10'000, 0},
      {"lock-heavy/100000", 1, 100'000, 0},
      {"fan-out/8", 2, 8, 0},
      {"fan-out/10000", 2, 10'000, 0},
      {"fan-out/100000", 2, 100'000, 0},
      {"mutex-chain/8", 3, 8, 0},
      {"mutex-chain/1000", 3, 1'000, 0},
      {"mutex-chain/10000", 3, 10'000, 0},
      {"mutex-chain/100000", 3, 100'000, 0},
      {"mutex-chain/1000000", 3, 1'000'000, 0},
      {"worker-pool/8", 4, 8, 0},
      {"worker-pool/1000", 4, 1'000, 0},
      {"worker-pool/10000", 4, 10'000, 0},
      {"worker-pool/100000", 4, 100'000, 0},
      {"worker-pool/1000000", 4, 1'000'000, 0},
      {"lock-heavy-bug/10000", 5, 10'000, 0},
  };
  std::printf("%-22s %-6s %7s %10s | %-22s | %-22s | %-18s | %3s |\n", "scenario", "clocks", "gor", "records",
              "HB wall  cpu", "HB+detect wall  cpu", "clocks  index", "fnd");
  for (const Scenario& s : scenarios) {
    // --only NAME$ is one scenario, not every name NAME starts.
    bool exact_prefix = !only.empty() && only.back() == '$';
    if (exact_prefix ? only.substr(0, only.size() - 1) != s.name
              : !only.empty() && std::strncmp(s.name, only.c_str(), only.size()) != 0) {
      continue;
    }
    if (!exact.empty() && exact.find(std::string(",") + s.name + ",") == std::string::npos) continue;
    uint64_t ev = s.events ? std::min(s.events, events) : events;
    // Without a budget: each scenario with every clock, then with the
    // clocks on demand (--clocks all|demand|both).
    const bool both = clocks == "both";
    for (int round = 0; round < (budgeted || both ? 2 : 1); round++) {
      const bool on_demand = both ? round == 1 : clocks == "demand";
      std::fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
        rlimit as{mem_mb << 20, mem_mb << 20};
        setrlimit(RLIMIT_AS, &as);
        rlimit cpu{timeout, timeout};
        setrlimit(RLIMIT_CPU, &cpu);
        if (!budgeted) RunScenario(s, ev, on_demand);
        else RunBudgeted(s, ev, round == 0 ? 0 : budget_mb << 20);
        std::fflush(stdout);
        _exit(0);
      }
      int status = 0;
      rusage ru{};
      wait4(pid, &status, 0, &ru);
      const char* fail = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? ""
                         : WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL)
                             ? "  [FAILED: CPU time limit]"
                             : "  [FAILED: out of memory or crashed]";
      std::printf("%-22s %-6s peak RSS %.0f MB (trace, engine and detectors)%s\n", s.name,
                  budgeted ? "" : on_demand ? "demand" : "all", ru.ru_maxrss / 1024.0, fail);
    }
  }
  return 0;
}
