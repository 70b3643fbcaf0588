// Analysis throughput: the happens-before engine alone and with the
// predictive detectors, on synthetic traces of typical shapes
// (synthetic_trace.h), up to 10 million records. Each scenario runs in its
// own process so that its peak memory (getrusage ru_maxrss via wait4) is its
// own. Prints records/s on wall time and on CPU time (the machines are
// shared; CPU time is the steadier number), the clock store's size and the
// peak resident memory.
//
//   analysis_perftest                 all scenarios, 10M records
//   analysis_perftest --events 1000000 --only chan
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "gordian/detect/predict.h"
#include "gordian/hb/happens_before.h"
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
  int shape;  // 0 channel-heavy, 1 lock-heavy, 2 fan-out
  uint32_t goroutines;
  uint64_t events;  // 0: the --events value
};

void RunScenario(const Scenario& s, uint64_t events) {
  double t0 = Wall();
  trace::Trace t = s.shape == 0   ? bench::ChannelHeavy(s.goroutines, events)
                   : s.shape == 1 ? bench::LockHeavy(s.goroutines, events)
                                  : bench::FanOut(s.goroutines, events);
  double gen = Wall() - t0;
  const double n = double(t.records.size());

  hb::HappensBefore hb;
  std::string err;
  double w0 = Wall(), c0 = Cpu();
  if (!hb.Build(t, &err)) {
    std::printf("%-22s build failed: %s\n", s.name, err.c_str());
    return;
  }
  double w1 = Wall(), c1 = Cpu();
  std::vector<report::Finding> findings;
  detect::PredictBugs(t, hb, &findings);
  double w2 = Wall(), c2 = Cpu();

  const hb::HbStats& st = hb.stats();
  std::printf(
      "%-22s %5u %10.0f | %6.2f %6.2f M/s | %6.2f %6.2f M/s | %7.0f MB %5.0f MB | %3zu | gen %.1fs\n",
      s.name, s.goroutines, n, n / (w1 - w0) / 1e6, n / (c1 - c0) / 1e6, n / (w2 - w0) / 1e6,
      n / (c2 - c0) / 1e6, st.clock_bytes / 1048576.0, st.index_bytes / 1048576.0,
      findings.size(), gen);
  for (const std::string& w : hb.warnings()) std::printf("    warning: %s\n", w.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t events = 10'000'000;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--events") && i + 1 < argc) events = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: analysis_perftest [--events N] [--only NAME-PREFIX]\n");
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
  };
  std::printf("%-22s %5s %10s | %-22s | %-22s | %-18s | %3s |\n", "scenario", "gor", "records",
              "HB wall  cpu", "HB+detect wall  cpu", "clocks  index", "fnd");
  for (const Scenario& s : scenarios) {
    if (!only.empty() && std::strncmp(s.name, only.c_str(), only.size()) != 0) continue;
    uint64_t ev = s.events ? std::min(s.events, events) : events;
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      RunScenario(s, ev);
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0;
    rusage ru{};
    wait4(pid, &status, 0, &ru);
    std::printf("%-22s peak RSS %.0f MB (trace, engine and detectors)%s\n", "", ru.ru_maxrss / 1024.0,
                WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "  [FAILED]");
  }
  return 0;
}
