// The own side of bench/run-spin-compare (docs/verify.md, "Promela
// export"): for every model of an
// IR file, at its smallest valuations, the time and peak memory of
// verify::Check, and the same model exported as Promela (verify/promela.h)
// for the SPIN side of the script. Each check runs in its own forked
// process, so its peak resident memory (wait4's ru_maxrss) is its own (it
// includes what the process held at the fork: the IR and the models, a few
// MB); the time is the mean of as many checks as fit in 20 ms.
//
//   spin_compare_perftest IR OUTDIR [MAX_VALUATIONS]
//   spin_compare_perftest --generated OUTDIR   test_models.h's generated
//                                             models, growing sizes
//
// prints one tab-separated line per file: name, model, states, seconds per
// check, peak KB, bounded (0/1), assertion (0/1), end_state (0/1).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "in_child.h"
#include "gordian/ir/reader.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/extract.h"
#include "gordian/verify/promela.h"
#include "gordian/verify/test_models.h"
#include "gordian/verify/verify_model.h"

namespace {

using namespace gordian;

struct Result {
  uint64_t states = 0;
  double seconds = 0;
  bool bounded = false, assertion = false, end_state = false;
};

// Checks m under vals in a forked process, writes its Promela into out and
// prints its line.
void Measure(const verify::Model& m, const std::vector<int64_t>& vals, const std::filesystem::path& out,
             std::set<std::string>* names) {
  verify::PromelaOptions popt;
  verify::CheckOptions copt;
  copt.max_objects = popt.max_objects;
  copt.param_values = vals;
  Result r{};
  const gordian::bench::ChildRun run = gordian::bench::InChild(
      [&] {
        int runs = 0;
        const auto t0 = std::chrono::steady_clock::now();
        double elapsed = 0;
        verify::CheckResult c;
        do {
          c = verify::Check(m, copt);
          ++runs;
          elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        } while (elapsed < 0.02);
        const verify::SpinVerdict v = verify::VerdictOf(c);
        return Result{c.states, elapsed / runs, v.bounded, v.assertion, v.end_state};
      },
      &r);
  if (!run.ok) {
    std::fprintf(stderr, "spin_compare_perftest: the check of %s failed (status %d)\n", m.entry.c_str(),
                 run.status);
    return;
  }
  verify::SpinVerdict v;
  v.bounded = r.bounded;
  v.assertion = r.assertion;
  v.end_state = r.end_state;
  popt.verdict = &v;
  popt.states = r.states;
  popt.seconds = r.seconds;
  const std::string base = verify::PromelaFileName(m, vals);
  std::string name = base;
  for (int k = 2; !names->insert(name).second; ++k) name = base.substr(0, base.size() - 4) + "@@" + std::to_string(k) + ".pml";
  std::ofstream(out / name) << verify::ToPromela(m, vals, popt);
  std::printf("%s\t%s\t%llu\t%.9f\t%ld\t%d\t%d\t%d\n", name.c_str(), m.entry.c_str(),
              static_cast<unsigned long long>(r.states), r.seconds, run.max_rss_kb, int(r.bounded), int(r.assertion),
              int(r.end_state));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: spin_compare_perftest IR OUTDIR [MAX_VALUATIONS] | --generated OUTDIR\n");
    return 2;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  std::set<std::string> names;
  if (std::string(argv[1]) == "--generated") {
    using namespace verify::testing;
    std::vector<std::pair<std::string, verify::Model>> gen = {
        {"prodcons/1/2/1", ProdCons(1, 2, 1)}, {"prodcons/2/2/1", ProdCons(2, 2, 1)},
        {"prodcons/2/3/2", ProdCons(2, 3, 2)}, {"prodcons/3/2/2", ProdCons(3, 2, 2)},
        {"workers/3/2", Workers(3, 2)},        {"workers/4/2", Workers(4, 2)},
        {"workers/5/2", Workers(5, 2)},        {"philosophers/3", Philosophers(3)},
        {"philosophers/5", Philosophers(5)},   {"philosophers/6", Philosophers(6)}};
    for (auto& [name, m] : gen) {
      m.entry = "generated/" + name;
      Measure(m, {}, out, &names);
    }
    return 0;
  }
  ir::Program prog;
  std::string err;
  if (!ir::ReadProgramFile(argv[1], &prog, &err)) {
    std::fprintf(stderr, "spin_compare_perftest: %s\n", err.c_str());
    return 2;
  }
  verify::VerifyOptions vopt;
  vopt.max_valuations = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
  for (const verify::Model& m : verify::ExtractModels(prog, verify::ExtractOptions{})) {
    if (!verify::Validate(m, &err)) continue;
    size_t all = 0;
    for (const std::vector<int64_t>& vals : verify::Valuations(m, vopt, &all)) Measure(m, vals, out, &names);
  }
  return 0;
}
