// Cross-check of the own model checker against SPIN (docs/verify.md,
// "Promela export"): each model is exported as Promela
// (verify/promela.h), SPIN's pipeline runs on it (spin -a, cc -DSAFETY,
// pan with a depth bound, once with -E for assertions only and once with
// -A for invalid end states only), and SPIN's two verdicts must equal the
// own checker's (the gordian-verdict header line). Any disagreement fails,
// naming the model and both verdicts. Models: small hand-written ones
// (test_models.h shorthand, one per primitive and bug kind) and every
// model `gordian verify -promela` writes for the verify corpus. pan is
// compiled once per file, two files at a time.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "verify_e2e.h"
#include "gordian/driver/process.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/promela.h"
#include "gordian/verify/test_models.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;
using namespace verify;
using namespace verify::testing;
using K = InstrKind;

constexpr const char* kSpin = "/usr/bin/spin";
constexpr const char* kMaxDepth = "-m100000";
// 2^19 hash slots: the models have at most thousands of states, and pan's
// default (2^24, 128 MB zeroed per run) would cost more than the search.
constexpr const char* kHashSlots = "-w19";

struct Verdicts {
  bool assertion = false, end_state = false;
};

// What SPIN says about one .pml file; *error when the pipeline failed or
// the search was cut by the depth bound.
bool RunSpin(const fs::path& pml, const fs::path& work, Verdicts* v, std::string* error) {
  fs::create_directories(work);
  auto run = [&](std::vector<std::string> argv, driver::ProcessResult* r) {
    driver::ProcessSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = work.string();
    spec.pass_through = false;
    spec.timeout_seconds = 120;
    std::string err;
    if (!driver::RunProcess(spec, r, &err)) {
      *error = err;
      return false;
    }
    return true;
  };
  driver::ProcessResult r;
  if (!run({kSpin, "-a", fs::absolute(pml).string()}, &r)) return false;
  if (r.exit_code != 0 || !fs::exists(work / "pan.c")) {
    *error = "spin -a failed:\n" + r.out + r.err;
    return false;
  }
  if (!run({"cc", "-O0", "-w", "-DSAFETY", "-DVECTORSZ=65536", "-o", "pan", "pan.c"}, &r)) return false;
  if (r.exit_code != 0) {
    *error = "cc pan.c failed:\n" + r.err.substr(0, 2000);
    return false;
  }
  for (const char* mode : {"-E", "-A"}) {
    if (!run({(work / "pan").string(), kMaxDepth, kHashSlots, mode}, &r)) return false;
    std::smatch m;
    static const std::regex errors_re("errors: ([0-9]+)");
    if (!std::regex_search(r.out, m, errors_re)) {
      *error = fmt::format("pan {} printed no error count:\n{}{}", mode, r.out, r.err);
      return false;
    }
    const bool found = std::stoi(m[1]) > 0;
    if (!found && r.out.find("max search depth too small") != std::string::npos) {
      *error = fmt::format("pan {} hit the depth bound {} without a verdict", mode, kMaxDepth);
      return false;
    }
    (std::string(mode) == "-E" ? v->assertion : v->end_state) = found;
  }
  return true;
}

std::string Text(bool assertion, bool end_state) {
  return fmt::format("assertion {}, invalid end state {}", assertion ? "yes" : "no", end_state ? "yes" : "no");
}

// One file to compare: SPIN's verdicts against ours.
struct Job {
  std::string name;  // the model (and valuation)
  fs::path pml;
  bool assertion = false, end_state = false;
};

struct Outcome {
  size_t agree = 0;
  std::vector<std::string> failures;
};

// Runs SPIN on every job, two at a time.
Outcome CrossCheck(const std::vector<Job>& jobs, const fs::path& work) {
  Outcome out;
  std::mutex mu;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < jobs.size();) {
      const Job& j = jobs[i];
      Verdicts spin;
      std::string err;
      const bool ok = RunSpin(j.pml, work / std::to_string(i), &spin, &err);
      std::lock_guard<std::mutex> lock(mu);
      if (!ok) {
        out.failures.push_back(fmt::format("{}: SPIN gave no verdict: {}", j.name, err));
      } else if (spin.assertion != j.assertion || spin.end_state != j.end_state) {
        out.failures.push_back(fmt::format("{} ({}): gordian says {}; SPIN says {}", j.name, j.pml.filename().string(),
                                           Text(j.assertion, j.end_state), Text(spin.assertion, spin.end_state)));
      } else {
        ++out.agree;
      }
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  return out;
}

fs::path TempDir(const std::string& what) {
  fs::path d = fs::temp_directory_path() / fmt::format("gordian-spin-{}-{}", what, getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// --- small models, one per primitive and kind --------------------------

std::vector<std::pair<std::string, Model>> SmallModels() {
  std::vector<std::pair<std::string, Model>> ms;
  // Unbuffered send with no receiver: the entry blocks (global deadlock).
  ms.push_back({"unbuffered-send-alone", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kSend, 0), I(K::kEnd)})})});
  // A rendezvous with a goroutine: clean.
  ms.push_back({"rendezvous", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kRecv, 0), I(K::kEnd)}),
                                 T("g", 1, {I(K::kSend, 0), I(K::kEnd)})})});
  // The goroutine sends on an unbuffered channel nobody receives from: a leak.
  ms.push_back({"leak", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kEnd)}),
                           T("g", 1, {I(K::kSend, 0), I(K::kEnd)})})});
  // Buffered channel of capacity n (a parameter), n sends: clean for n>=2, stuck below.
  for (int64_t n : {1, 2}) {
    Parameter p;
    p.name = "n";
    Model m = M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, Expr::Param(0)), I(K::kSend, 0), I(K::kSend, 0), I(K::kEnd)})},
                {p});
    ms.push_back({fmt::format("buffered-cap-{}", n), m});
  }
  // Close twice; close nil; send on closed.
  ms.push_back({"close-closed", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), I(K::kClose, 0), I(K::kClose, 0), I(K::kEnd)})})});
  ms.push_back({"close-nil", M({T("main", 1, {I(K::kClose, 0), I(K::kEnd)})})});
  ms.push_back({"send-on-closed-race",
                M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), Go(1, {0}), I(K::kClose, 0), I(K::kEnd)}),
                   T("g", 1, {I(K::kSend, 0), I(K::kEnd)})})});
  // Receive from a closed channel proceeds.
  ms.push_back({"recv-closed", M({T("main", 2, {I(K::kMakeChan, 0, -1, -1, C(0)), I(K::kClose, 0), I(K::kRecv, 0, 1), I(K::kEnd)})})});
  // WaitGroup: Done without Add (negative); Add(2), two Done goroutines, Wait (clean); Add(2) one Done (deadlock).
  ms.push_back({"wg-negative", M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})})});
  ms.push_back({"wg-ok", M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(2)), Go(1, {0}), Go(1, {0}),
                                         I(K::kWgWait, 0), I(K::kEnd)}),
                            T("w", 1, {I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})})});
  ms.push_back({"wg-missing-done", M({T("main", 1, {I(K::kMakeWaitGroup, 0), I(K::kWgAdd, 0, -1, -1, C(2)), Go(1, {0}),
                                                   I(K::kWgWait, 0), I(K::kEnd)}),
                                      T("w", 1, {I(K::kWgAdd, 0, -1, -1, C(-1)), I(K::kEnd)})})});
  // Mutex: unlock of unlocked; double lock; two goroutines lock/unlock (clean);
  // lock order a,b against b,a (deadlock).
  ms.push_back({"unlock-unlocked", M({T("main", 1, {I(K::kMakeMutex, 0), I(K::kUnlock, 0), I(K::kEnd)})})});
  ms.push_back({"double-lock", M({T("main", 1, {I(K::kMakeMutex, 0), I(K::kLock, 0), I(K::kLock, 0), I(K::kEnd)})})});
  ms.push_back({"mutex-ok", M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeWaitGroup, 1), I(K::kWgAdd, 1, -1, -1, C(2)),
                                            Go(1, {0, 1}), Go(1, {0, 1}), I(K::kWgWait, 1), I(K::kEnd)}),
                               T("w", 2, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kWgAdd, 1, -1, -1, C(-1)), I(K::kEnd)})})});
  ms.push_back({"lock-order", M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeMutex, 1), Go(1, {0, 1}), Go(1, {1, 0}), I(K::kEnd)}),
                                 T("w", 2, {I(K::kLock, 0), I(K::kLock, 1), I(K::kUnlock, 1), I(K::kUnlock, 0), I(K::kEnd)})})});
  // RWMutex: readers and a writer (clean); RUnlock without RLock.
  ms.push_back({"rwmutex-ok", M({T("main", 1, {I(K::kMakeRWMutex, 0), Go(1, {0}), Go(2, {0}), I(K::kEnd)}),
                                 T("r", 1, {I(K::kRLock, 0), I(K::kRUnlock, 0), I(K::kEnd)}),
                                 T("w", 1, {I(K::kLock, 0), I(K::kUnlock, 0), I(K::kEnd)})})});
  ms.push_back({"runlock-unlocked", M({T("main", 1, {I(K::kMakeRWMutex, 0), I(K::kRUnlock, 0), I(K::kEnd)})})});
  // Select with default on an empty buffered channel (clean), without default (stuck).
  ms.push_back({"select-default", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), Select({Case(false, 0, 2)}, 2), I(K::kEnd)})})});
  ms.push_back({"select-blocks", M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(1)), Select({Case(false, 0, 2)}), I(K::kEnd)})})});
  // Select send against select receive on an unbuffered channel: they meet.
  ms.push_back({"select-meets-select",
                M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), Select({Case(false, 0, 3)}), I(K::kEnd)}),
                   T("g", 1, {Select({Case(true, 0, 1)}), I(K::kEnd)})})});
  // An unknown branch: one side leaks.
  ms.push_back({"unknown-branch-leak",
                M({T("main", 1, {I(K::kMakeChan, 0, -1, -1, C(0)), Go(1, {0}), I(K::kBranch, 3, 4), I(K::kRecv, 0), I(K::kEnd)}),
                   T("g", 1, {I(K::kSend, 0), I(K::kEnd)})})});
  // Once: two goroutines run it, the body sends on a buffered channel of 1: clean.
  ms.push_back({"once", M({T("main", 3, {I(K::kMakeOnce, 0), I(K::kMakeChan, 1, -1, -1, C(1)), I(K::kMakeWaitGroup, 2),
                                        I(K::kWgAdd, 2, -1, -1, C(2)), Go(1, {0, 1, 2}), Go(1, {0, 1, 2}), I(K::kWgWait, 2), I(K::kEnd)}),
                           T("g", 3, {I(K::kOnceBegin, 0, 3), I(K::kSend, 1), I(K::kOnceEnd, 0), I(K::kWgAdd, 2, -1, -1, C(-1)), I(K::kEnd)})})});
  // Cond: a waiter and a signaller that may signal before the wait (lost wakeup: stuck).
  ms.push_back({"cond-lost-signal",
                M({T("main", 2, {I(K::kMakeMutex, 0), I(K::kMakeCond, 1, 0), Go(1, {0, 1}), I(K::kLock, 0), I(K::kCondWait, 1),
                                 I(K::kUnlock, 0), I(K::kEnd)}),
                   T("s", 2, {I(K::kLock, 0), I(K::kCondSignal, 1), I(K::kUnlock, 0), I(K::kEnd)})})});
  // Context: a goroutine waits on Done, main cancels (clean); nobody cancels but a timeout may (clean).
  ms.push_back({"context-cancel",
                M({T("main", 2, {I(K::kMakeContext, 0, -1, 0), I(K::kCtxDone, 1, 0), Go(1, {1}), I(K::kCancel, 0), I(K::kEnd)}),
                   T("g", 1, {I(K::kRecv, 0), I(K::kEnd)})})});
  ms.push_back({"context-never-cancelled",
                M({T("main", 2, {I(K::kMakeContext, 0, -1, 0), I(K::kCtxDone, 1, 0), Go(1, {1}), I(K::kEnd)}),
                   T("g", 1, {I(K::kRecv, 0), I(K::kEnd)})})});
  ms.push_back({"context-timeout",
                M({T("main", 2, {I(K::kMakeContext, 0, -1, 1), I(K::kCtxDone, 1, 0), I(K::kRecv, 1), I(K::kEnd)})})});
  // A timer fires once: one receive is fine, two are stuck.
  ms.push_back({"timer-once", M({T("main", 1, {I(K::kMakeTimer, 0), I(K::kRecv, 0), I(K::kEnd)})})});
  ms.push_back({"timer-twice", M({T("main", 1, {I(K::kMakeTimer, 0), I(K::kRecv, 0), I(K::kRecv, 0), I(K::kEnd)})})});
  // An explicit panic.
  ms.push_back({"panic", M({T("main", 0, {I(K::kPanic)})})});
  // test_models.h's generated models, small sizes: loops, a WaitGroup, a
  // mutex under contention, the philosophers' lock-order deadlock.
  ms.push_back({"prodcons/1/2/1", ProdCons(1, 2, 1)});
  ms.push_back({"prodcons/2/2/0", ProdCons(2, 2, 0)});
  ms.push_back({"workers/3/2", Workers(3, 2)});
  ms.push_back({"philosophers/3", Philosophers(3)});
  return ms;
}

TEST(SpinCrossCheck, SmallModels) {
  ASSERT_TRUE(fs::exists(kSpin)) << "SPIN is missing: scripts/install-deps installs Debian's spin";
  const fs::path dir = TempDir("small");
  std::vector<Job> jobs;
  size_t violations = 0;
  for (const auto& [name, m] : SmallModels()) {
    std::string err;
    ASSERT_TRUE(Validate(m, &err)) << name << ": " << err;
    CheckOptions copt;
    PromelaOptions popt;
    copt.max_objects = popt.max_objects;
    for (const Parameter& p : m.params) copt.param_values.push_back(p.name == "n" ? std::stoi(name.substr(name.size() - 1)) : 0);
    const CheckResult r = Check(m, copt);
    ASSERT_FALSE(r.bounded) << name << ": " << r.bound_reason;
    const SpinVerdict v = VerdictOf(r);
    std::string file = name;
    std::replace(file.begin(), file.end(), '/', '-');
    Job j{name, dir / (file + ".pml"), v.assertion, v.end_state};
    violations += v.assertion || v.end_state;
    std::ofstream(j.pml) << ToPromela(m, copt.param_values, popt);
    jobs.push_back(j);
  }
  // Both verdicts occur among the models, so agreement is not vacuous.
  EXPECT_GE(violations, 10u);
  EXPECT_GE(jobs.size() - violations, 10u);
  const Outcome o = CrossCheck(jobs, dir / "work");
  for (const std::string& f : o.failures) ADD_FAILURE() << f;
  std::cout << fmt::format("small models: {} of {} agree with SPIN ({} with a violation)\n", o.agree, jobs.size(), violations);
  if (o.failures.empty()) fs::remove_all(dir);
}

// --- random models ------------------------------------------------------------

// A random model over one channel (capacity 0 or 1), one mutex and one
// WaitGroup made by main and passed to 1 or 2 goroutines. Main adds one
// to the WaitGroup per goroutine, each goroutine calls Done last; between,
// each process runs 1 to 4 random blocks (a send, a receive, a select with
// or without default, a critical section around a send or a receive or
// nothing, an unknown branch around a send or a receive, rarely a close or
// an unmatched unlock), and main then maybe waits and maybe closes. About
// half of them are clean. Code only jumps forward, so every run ends.
Model RandomModel(std::mt19937* rng) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<uint32_t>(n)); };
  auto comm = [&](std::vector<Instr>* code) {
    const int32_t pc = static_cast<int32_t>(code->size());
    switch (pick(3)) {
      case 0: code->push_back(I(K::kSend, 0)); break;
      case 1: code->push_back(I(K::kRecv, 0, 3)); break;
      default: code->push_back(Select({Case(pick(2) == 0, 0, pc + 1)}, pick(2) ? pc + 1 : -1)); break;
    }
  };
  auto blocks = [&](std::vector<Instr>* code, int n) {
    for (int i = 0; i < n; ++i) {
      const int32_t pc = static_cast<int32_t>(code->size());
      switch (pick(8)) {
        case 0: case 1: case 2: comm(code); break;
        case 3: case 4:  // a critical section
          code->push_back(I(K::kLock, 1));
          if (pick(2)) comm(code);
          code->push_back(I(K::kUnlock, 1));
          break;
        case 5:  // an unknown branch around one operation
          code->push_back(I(K::kBranch, pc + 1, pc + 2));
          comm(code);
          break;
        case 6: code->push_back(I(K::kClose, 0)); break;
        default: code->push_back(pick(2) ? I(K::kUnlock, 1) : I(K::kWgAdd, 2, -1, -1, C(-1))); break;
      }
    }
  };
  std::vector<Instr> main = {I(K::kMakeChan, 0, -1, -1, C(pick(2))), I(K::kMakeMutex, 1), I(K::kMakeWaitGroup, 2)};
  const int gs = 1 + pick(2);
  main.push_back(I(K::kWgAdd, 2, -1, -1, C(gs)));
  std::vector<Template> ts = {T("main", 4, {})};
  for (int g = 0; g < gs; ++g) {
    main.push_back(Go(g + 1, {0, 1, 2}));
    std::vector<Instr> body;
    blocks(&body, 1 + pick(4));
    body.push_back(I(K::kWgAdd, 2, -1, -1, C(-1)));
    body.push_back(I(K::kEnd));
    ts.push_back(T(fmt::format("g{}", g + 1), 4, body));
  }
  blocks(&main, pick(3));
  if (pick(4)) main.push_back(I(K::kWgWait, 2));
  if (!pick(3)) main.push_back(I(K::kClose, 0));
  main.push_back(I(K::kEnd));
  ts[0].code = main;
  return M(ts);
}

// A random model over the other primitives: an RWMutex (1), a context
// with or without a timeout (4) and its Done channel (5), a timer or ticker
// (6), a Cond (8) on a mutex (7), a Once (9), beside a channel (0) and a
// WaitGroup (2). Blocks: read and write critical sections, a receive from
// Done or the timer, a cancel, a stop, a select over Done, the timer and
// the channel (with or without default), a Cond wait in its critical
// section, a signal or broadcast, a Once around a send.
Model RandomRichModel(std::mt19937* rng) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<uint32_t>(n)); };
  auto blocks = [&](std::vector<Instr>* code, int n) {
    for (int i = 0; i < n; ++i) {
      const int32_t pc = static_cast<int32_t>(code->size());
      switch (pick(11)) {
        case 0: code->push_back(I(K::kRLock, 1)); code->push_back(I(K::kRUnlock, 1)); break;
        case 1: code->push_back(I(K::kLock, 1)); code->push_back(I(K::kUnlock, 1)); break;
        case 2: code->push_back(I(K::kRecv, 5)); break;
        case 3: code->push_back(I(K::kRecv, 6)); break;
        case 4: code->push_back(I(K::kCancel, 4)); break;
        case 5: code->push_back(I(K::kStopTimer, 6)); break;
        case 6:
          code->push_back(Select({Case(false, 5, pc + 1), Case(false, 6, pc + 1), Case(pick(2) == 0, 0, pc + 1)},
                                 pick(2) ? pc + 1 : -1));
          break;
        case 7:
          code->push_back(I(K::kLock, 7));
          code->push_back(I(K::kCondWait, 8));
          code->push_back(I(K::kUnlock, 7));
          break;
        case 8: code->push_back(I(pick(2) ? K::kCondSignal : K::kCondBroadcast, 8)); break;
        case 9:
          code->push_back(I(K::kOnceBegin, 9, pc + 3));
          code->push_back(I(K::kSend, 0));
          code->push_back(I(K::kOnceEnd, 9));
          break;
        default: code->push_back(pick(2) ? I(K::kSend, 0) : I(K::kRecv, 0, 3)); break;
      }
    }
  };
  std::vector<Instr> main = {I(K::kMakeChan, 0, -1, -1, C(pick(2))), I(K::kMakeRWMutex, 1), I(K::kMakeWaitGroup, 2),
                             I(K::kMakeContext, 4, -1, pick(2)), I(K::kCtxDone, 5, 4), I(K::kMakeTimer, 6, -1, pick(2)),
                             I(K::kMakeMutex, 7), I(K::kMakeCond, 8, 7), I(K::kMakeOnce, 9)};
  const int gs = 1 + pick(2);
  main.push_back(I(K::kWgAdd, 2, -1, -1, C(gs)));
  std::vector<Template> ts = {T("main", 10, {})};
  for (int g = 0; g < gs; ++g) {
    main.push_back(Go(g + 1, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    std::vector<Instr> body;
    blocks(&body, 1 + pick(3));
    body.push_back(I(K::kWgAdd, 2, -1, -1, C(-1)));
    body.push_back(I(K::kEnd));
    ts.push_back(T(fmt::format("g{}", g + 1), 10, body));
  }
  blocks(&main, pick(3));
  if (pick(4)) main.push_back(I(K::kWgWait, 2));
  if (pick(2)) main.push_back(I(K::kCancel, 4));
  main.push_back(I(K::kEnd));
  ts[0].code = main;
  return M(ts);
}

// Random models, both kinds in turn, a fixed seed: GORDIAN_SPIN_RANDOM=N checks N of them
// (default 12), GORDIAN_SPIN_SEED another sequence.
TEST(SpinCrossCheck, RandomModels) {
  ASSERT_TRUE(fs::exists(kSpin)) << "SPIN is missing: scripts/install-deps installs Debian's spin";
  const int n = e2e::Env("GORDIAN_SPIN_RANDOM").empty() ? 12 : std::stoi(e2e::Env("GORDIAN_SPIN_RANDOM"));
  const uint32_t seed = e2e::Env("GORDIAN_SPIN_SEED").empty() ? 15 : std::stoul(e2e::Env("GORDIAN_SPIN_SEED"));
  std::mt19937 rng(seed);
  const fs::path dir = TempDir("random");
  std::vector<Job> jobs;
  size_t violations = 0, assertions = 0, end_states = 0;
  for (int i = 0; i < n; ++i) {
    const Model m = i % 2 ? RandomRichModel(&rng) : RandomModel(&rng);
    std::string err;
    ASSERT_TRUE(Validate(m, &err)) << i << ": " << err << "\n" << Print(m);
    CheckOptions copt;
    PromelaOptions popt;
    copt.max_objects = popt.max_objects;
    const CheckResult r = Check(m, copt);
    ASSERT_FALSE(r.bounded) << r.bound_reason;
    const SpinVerdict v = VerdictOf(r);
    assertions += v.assertion;
    end_states += v.end_state;
    Job j{fmt::format("random model {} (seed {})", i, seed), dir / fmt::format("random-{}.pml", i), v.assertion,
          v.end_state};
    violations += v.assertion || v.end_state;
    std::ofstream(j.pml) << ToPromela(m, {}, popt);
    jobs.push_back(j);
  }
  const Outcome o = CrossCheck(jobs, dir / "work");
  for (const std::string& f : o.failures) ADD_FAILURE() << f;
  std::cout << fmt::format("random models: {} of {} agree with SPIN ({} with a violation: {} assertion, {} end state)\n",
                           o.agree, jobs.size(), violations, assertions, end_states);
  // Both verdicts of both kinds occur, so agreement is not vacuous.
  if (n >= 12) {
    EXPECT_GT(jobs.size(), violations);
    EXPECT_GT(assertions, 0u);
    EXPECT_GT(end_states, 0u);
  }
  if (o.failures.empty()) fs::remove_all(dir);
}

// --- the verify corpus ------------------------------------------------------

TEST(SpinCrossCheck, VerifyCorpus) {
  ASSERT_TRUE(fs::exists(kSpin)) << "SPIN is missing: scripts/install-deps installs Debian's spin";
  const fs::path root = fs::path(e2e::SourceDir()) / "tests/corpus/verify";
  const fs::path dir = TempDir("corpus");
  // The smallest valuation of each model (GORDIAN_SPIN_VALUATIONS=N: the N
  // smallest): compiling pan is the cost, about 1.5 s of CPU per file.
  const std::string nval = e2e::Env("GORDIAN_SPIN_VALUATIONS").empty() ? "1" : e2e::Env("GORDIAN_SPIN_VALUATIONS");
  driver::ProcessResult r;
  std::string err;
  ASSERT_TRUE(e2e::RunVerify({"-promela", (dir / "pml").string(), "-max-valuations", nval, "./..."}, root,
                             dir, &r, &err))
      << err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  static const std::regex model_re(R"(/\* model: (.*) \(.*\) \*/)");
  static const std::regex verdict_re(R"(gordian-verdict: assertion=([01]) end_state=([01]) bounded=([01]))");
  std::vector<Job> jobs;
  std::set<std::string> models, bounded;
  size_t violations = 0;
  for (const auto& e : fs::directory_iterator(dir / "pml")) {
    if (e.path().extension() != ".pml") continue;
    const std::string text = e2e::Slurp(e.path());
    std::smatch mm, vm;
    ASSERT_TRUE(std::regex_search(text, mm, model_re)) << e.path();
    ASSERT_TRUE(std::regex_search(text, vm, verdict_re)) << e.path();
    const std::string model = mm[1];
    if (vm[3] == "1") {  // the checker hit a limit: no verdict to compare
      bounded.insert(e.path().filename().string());
      continue;
    }
    models.insert(model);
    Job j{model, e.path(), vm[1] == "1", vm[2] == "1"};
    violations += j.assertion || j.end_state;
    jobs.push_back(j);
  }
  std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.pml < b.pml; });
  ASSERT_GE(models.size(), 60u) << "fewer models than the corpus has programs";
  EXPECT_GE(violations, 20u);
  const auto t0 = std::chrono::steady_clock::now();
  const Outcome o = CrossCheck(jobs, dir / "work");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const std::string& f : o.failures) ADD_FAILURE() << f;
  std::cout << fmt::format("verify corpus: {} files of {} models ({} with a violation); {} agree with SPIN, {} do not; "
                           "{} files left out (the checker was bounded); SPIN pipeline {:.1f} s\n",
                           jobs.size(), models.size(), violations, o.agree, o.failures.size(), bounded.size(), secs);
  for (const std::string& b : bounded) std::cout << "  bounded: " << b << "\n";
  if (o.failures.empty()) fs::remove_all(dir);
}

}  // namespace
}  // namespace gordian
