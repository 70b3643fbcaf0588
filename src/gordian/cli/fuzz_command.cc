// This file implements `gordian fuzz [flags] [go test flags] [packages]`:
// runs the packages' tests once with the recorder on (the verdict, and how
// to run each package's tests again), lists them with go test -list (the
// tests go test runs, -run selecting), then, test by test, a fuzzing
// campaign of schedules (fuzz/campaign.h) within -budget, and one report
// of every bug found, confirmed by replay, as `gordian test` prints it
// (reporting.h), led by the verdict of the listing run.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/progress.h"
#include "gordian/cli/reporting.h"
#include "gordian/cli/shard_flag.h"
#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/driver/test_list.h"
#include "gordian/driver/work_dir.h"
#include "gordian/fuzz/campaign.h"
#include "gordian/fuzz/strategy.h"
#include "gordian/pipeline/binary_runner.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/trace/summary.h"
#include "gordian/util/duration.h"

namespace gordian::cli {
namespace {

namespace fs = std::filesystem;

struct FuzzFlags {
  ReportOptions report;
  std::string budget = "60s";
  std::string stale = "10s";
  std::string run_wall = "30s";
  std::string wall = "10m";
  long jobs = 0;
  long max_runs = 0;
  bool verbose = false;
  bool no_confirm = false;
  std::string strategies;  // "" all
  std::string seed;        // "" a new one
  std::string corpus;      // "" each package's testdata; "off" none
  std::string shard;       // "" all tests; "I/N" shard I of N
  bool go_test_per_run = false;
  bool exact = false;
};

// One test of one package, and how to run it alone.
struct TestToFuzz {
  std::string package;
  std::string name;
  schedule::Invocation inv;
};

// The invocation of the listing run with -test.run selecting only name.
schedule::Invocation OnlyTest(schedule::Invocation inv, const std::string& name) {
  std::erase_if(inv.args, [](const std::string& a) {
    return a.rfind("-test.run=", 0) == 0 || a.rfind("-test.count=", 0) == 0;
  });
  inv.args.insert(inv.args.begin(), fmt::format("-test.run=^{}$", name));
  return inv;
}

std::string BugsText(size_t n) { return n == 1 ? "1 bug" : fmt::format("{} bugs", n); }

}  // namespace

int RunFuzz(const std::vector<std::string>& args) {
  const std::string cmd = "gordian fuzz";
  util::FlagSet flags(cmd);
  FuzzFlags c;
  AddReportFlags(&flags, &c.report);
  flags.String("budget", &c.budget, "DURATION", "fuzzing time per test (default 60s)");
  flags.String("stale", &c.stale, "DURATION",
               "stop a test's fuzzing early when its coverage has not grown for this long "
               "(default 10s; 0 = never)");
  flags.Int("j", &c.jobs, "N", "runs at once (default: the number of cores)");
  flags.Int("max-runs", &c.max_runs, "N", "at most N runs per test (default 0: no limit)");
  flags.String("run-wall", &c.run_wall, "DURATION",
               "kill one run (its build included) after this long (default 30s)");
  flags.String("wall", &c.wall, "DURATION",
               "kill the listing run (its build included) after this long (default 10m)");
  flags.Bool("verbose", &c.verbose, "say what each confirmation did and each new bug's run");
  flags.Bool("no-confirm", &c.no_confirm,
             "do not replay new bugs: predicted ones stay predicted, occurred ones get no "
             "reproduce");
  flags.String("strategies", &c.strategies, "LIST",
               "the strategies to combine, by name, comma-separated (default: all of "
               "prediction, flip, select, delay, chain)");
  flags.String("seed", &c.seed, "N",
               "the seed of every random choice (default: a new one, printed and in the "
               "JSON report); the same seed and the same runs give the same schedules");
  flags.String("corpus", &c.corpus, "DIR",
               "keep the schedules that add coverage in DIR/<package>/<test>/ and run them first "
               "next time (default: testdata/gordian-fuzz/<test>/ in the package's directory, "
               "as go test -fuzz does; off: none)");
  flags.Bool("exact", &c.exact,
             "with -j above 1, run k waits for the proposals of runs up to k-j, so that a seed "
             "repeats the sequence of schedules; costs runs per second when runs vary in length");
  flags.Bool("go-test-per-run", &c.go_test_per_run,
             "run each schedule with go test (which links the test binary again every run) "
             "instead of the package's test binary built once");
  flags.String("shard", &c.shard, "I/N",
               "fuzz only shard I of N (0 <= I < N): the tests whose name hashes to I; shards "
               "0 to N-1 together fuzz every test once (docs/scale.md, gordian merge)");
  std::vector<std::string> go_flags;
  flags.PassThroughUnknown(&go_flags);
  std::vector<std::string> positional;
  const char* usage =
      "usage: gordian fuzz [flags] [go test flags] [packages]\n\n"
      "Explores schedules of each test of the packages (the tests go test runs;\n"
      "-run selects): runs the test under schedules made from what the analysis\n"
      "of earlier runs predicts (other partners, other select cases, other lock\n"
      "orders), keeps what adds coverage, and reports every bug found in any\n"
      "run once, confirmed by replay, with a reproduce command.\n"
      "Exit status, as gordian test's: 0 all tests passed and no bug, 1 a test\n"
      "failed or bugs were found, 2 gordian or the build failed.\n\nFlags:\n";
  if (auto done = ParseCommandLine(&flags, args, &positional, usage)) return *done;
  double budget = 0, stale = 0, run_wall = 0, wall = 0;
  std::string derr;
  for (auto [name, text, out] : {std::tuple{"budget", &c.budget, &budget},
                                 std::tuple{"stale", &c.stale, &stale},
                                 std::tuple{"run-wall", &c.run_wall, &run_wall},
                                 std::tuple{"wall", &c.wall, &wall}}) {
    if (!util::ParseDuration(*text, out, &derr)) {
      return UsageError(fmt::format("{}: -{} {:?}: {}", cmd, name, *text, derr));
    }
  }
  if (budget <= 0) return UsageError(fmt::format("{}: -budget must be more than 0", cmd));
  uint64_t seed = 0;
  if (c.seed.empty()) {
    // Within 2^53, so that a JSON reader that keeps numbers as doubles
    // reads it back exactly.
    std::random_device rd;
    seed = ((uint64_t{rd()} << 32) ^ rd()) & ((uint64_t{1} << 53) - 1);
  } else {
    auto [end, ec] = std::from_chars(c.seed.data(), c.seed.data() + c.seed.size(), seed);
    if (ec != std::errc() || end != c.seed.data() + c.seed.size()) {
      return UsageError(fmt::format("{}: -seed {:?}: want a whole number from 0 to {}", cmd,
                                    c.seed, UINT64_MAX));
    }
  }
  if (c.jobs < 0 || c.max_runs < 0) {
    return UsageError(fmt::format("{}: -j and -max-runs take a count of 0 or more", cmd));
  }
  int jobs = c.jobs > 0 ? static_cast<int>(c.jobs)
                        : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<fuzz::Strategy>> strategies = fuzz::DefaultStrategies();
  if (!c.strategies.empty()) {
    std::vector<std::string> want;
    for (size_t at = 0; at <= c.strategies.size();) {
      size_t comma = std::min(c.strategies.find(',', at), c.strategies.size());
      want.push_back(c.strategies.substr(at, comma - at));
      at = comma + 1;
    }
    for (const std::string& w : want) {
      bool known = std::any_of(strategies.begin(), strategies.end(),
                               [&](const auto& s) { return w == s->Name(); });
      if (!known) {
        return UsageError(fmt::format("{}: -strategies: no strategy {:?} (prediction, flip, select, delay, chain)", cmd, w));
      }
    }
    std::erase_if(strategies, [&](const auto& s) {
      return std::find(want.begin(), want.end(), s->Name()) == want.end();
    });
  }
  std::vector<std::string> go_args = go_flags;
  go_args.insert(go_args.end(), positional.begin(), positional.end());
  if (auto done = ApplyShardFlag(cmd, c.shard, wall, c.report, &go_args)) return *done;

  // The scratch directory of the whole command; schedules that reproduce
  // bugs are kept in the cache, as gordian test keeps them.
  std::string cache, scratch, err;
  bool have_scratch = driver::CacheDir(&cache, &err) && driver::MakeRunDir(cache, &scratch, &err);
  std::shared_ptr<void> remove_scratch(nullptr, [&](void*) {
    if (!scratch.empty()) driver::RemoveTree(scratch);
  });
  if (!have_scratch) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  driver::PruneSchedules(cache);
  std::string schedule_dir =
      (fs::path(cache) / "schedules" / fs::path(scratch).filename()).string();

  // 1. The listing run: every selected test once, recorded.
  driver::RecordOptions ro;
  ro.mode = driver::RecordMode::kTest;
  ro.args = go_args;
  ro.out_dir = scratch + "/list";
  ro.wall_seconds = wall;
  ro.pass_through = !c.report.quiet;  // go test's own output once, build errors included
  driver::RecordResult listed;
  if (!driver::Record(ro, &listed, &err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  if (driver::Interrupted() || listed.run.interrupted) {
    fmt::print(stderr, "{}: interrupted\n", cmd);
    return kExitToolError;
  }
  if (listed.build_failed) {
    if (!ro.pass_through) {
      for (const auto& e : listed.build_errors) fmt::print(stderr, "{}\n", e.String());
    }
    fmt::print(stderr, "{}: the build failed; fix the errors and run again\n", cmd);
    return kExitToolError;
  }
  // The tests of each package by name, as go test -list gives them: the
  // recording stops at a test that crashes the binary, and would hide the
  // tests after it.
  std::vector<driver::PackageTests> names;
  std::string list_err;
  if (!driver::ListTests(go_args, fs::current_path().string(), wall, &names, &list_err)) {
    if (driver::Interrupted()) {
      fmt::print(stderr, "{}: interrupted\n", cmd);
      return kExitToolError;
    }
    fmt::print(stderr, "{}: {}; fuzzing the tests the recording saw\n", cmd, list_err);
    names.clear();
  }
  report::Verdict verdict;
  std::vector<TestToFuzz> tests;
  std::vector<std::string> recorded;  // packages with a trace
  for (const driver::PackageTrace& p : listed.traces) {
    trace::Trace t;
    if (!trace::ReadTrace(p.trace_dir, &t, &err)) {
      fmt::print(stderr, "{}: {}: {}\n", cmd, p.trace_dir, err);
      continue;
    }
    std::string pkg = p.import_path.empty() ? p.name : p.import_path;
    pipeline::AddTraceVerdict(t, pkg, &verdict);
    schedule::Invocation inv = schedule::InvocationOf(t, p.trace_dir);
    if (inv.mode != "test" || inv.cwd.empty()) {
      fmt::print(stderr, "{}: {}: the recording does not say how to run its tests again\n", cmd,
                 pkg);
      continue;
    }
    recorded.push_back(pkg);
    auto listed_pkg = std::find_if(names.begin(), names.end(), [&](const driver::PackageTests& n) {
      return n.package == pkg && n.listed;
    });
    if (listed_pkg != names.end()) {
      for (const std::string& name : listed_pkg->tests) {
        tests.push_back(TestToFuzz{pkg, name, OnlyTest(inv, name)});
      }
      continue;
    }
    for (const trace::TestOutcome& o : trace::TestOutcomes(t)) {
      if (o.name.find('/') != std::string::npos) continue;  // subtests run with their test
      tests.push_back(TestToFuzz{pkg, o.name, OnlyTest(inv, o.name)});
    }
  }
  for (const driver::PackageTests& n : names) {
    if (!n.tests.empty() &&
        std::find(recorded.begin(), recorded.end(), n.package) == recorded.end()) {
      fmt::print(stderr, "{}: {}: not fuzzed: its test binary left no recording to run its "
                 "tests from\n", cmd, n.package);
    }
  }
  if (tests.empty()) {
    fmt::print(stderr, "{}: no test to fuzz: {} ({}); do the packages have tests, and does -run "
               "select any?\n", cmd, listed.traces.empty() ? "go test ran no test binary"
                                                         : "the tests recorded none",
               listed.run.Describe());
    return kExitToolError;
  }

  // 2. A campaign per test, each from the same seed (a test's campaign
  // does not depend on which tests ran before it).
  if (!c.report.quiet) fmt::print(stderr, "{}: seed {}\n", cmd, seed);
  report::FuzzReport fuzz_report;
  fuzz_report.seed = seed;
  std::vector<report::Finding> all;
  // Each package's test binary, built once, runs every schedule of its
  // tests (pipeline/binary_runner.h); "" key: none could be built.
  std::map<std::string, std::unique_ptr<pipeline::TestBinaryRunner>> binaries;
  pipeline::GoScheduleRunner go_runner;
  for (size_t k = 0; k < tests.size() && !driver::Interrupted(); k++) {
    const TestToFuzz& tt = tests[k];
    pipeline::ScheduleRunner* runner = nullptr;  // go test per run
    std::string bin_key = tt.inv.cwd + (tt.inv.race ? " -race" : "");
    if (!c.go_test_per_run) {
      auto it = binaries.find(bin_key);
      if (it == binaries.end()) {
        std::string bin_dir = fmt::format("{}/bin-{}", scratch, binaries.size());
        std::error_code ec;
        fs::create_directories(bin_dir, ec);
        driver::TestBinary b;
        std::string berr;
        if (driver::BuildTestBinary(tt.inv.cwd, tt.inv.race, {}, bin_dir, wall, &b, &berr)) {
          it = binaries.emplace(bin_key, std::make_unique<pipeline::TestBinaryRunner>(b, &go_runner))
                   .first;
        } else {
          if (driver::Interrupted()) break;
          fmt::print(stderr, "{}: {}: {}; each run goes through go test instead\n", cmd,
                     tt.package, berr);
          it = binaries.emplace(bin_key, nullptr).first;
        }
      }
      runner = it->second.get();
    }
    fuzz::CampaignOptions co;
    co.cmd = cmd;
    co.invocation = tt.inv;
    co.test = tt.name;
    co.package = tt.package;
    co.budget_seconds = budget;
    co.stale_seconds = stale;
    co.max_runs = static_cast<size_t>(c.max_runs);
    co.jobs = jobs;
    co.seed = seed;
    co.exact = c.exact;
    co.runner = runner;
    if (c.corpus.empty()) {
      co.corpus_dir = (fs::path(tt.inv.cwd) / "testdata" / "gordian-fuzz" / tt.name).string();
    } else if (c.corpus != "off") {
      co.corpus_dir = (fs::absolute(c.corpus) / tt.package / tt.name).string();
    }
    co.work_dir = fmt::format("{}/test-{}", scratch, k);
    co.run.wall_seconds = run_wall;
    co.run.pass_through = false;
    co.run.stall_ms = 300;  // a schedule the program cannot follow costs little
    co.confirm.enabled = !c.no_confirm;
    co.confirm.schedule_dir = (fs::path(schedule_dir) / fmt::format("test-{}", k)).string();
    co.confirm.per_finding_seconds = run_wall;
    co.confirm.per_test_seconds = 2 * run_wall;
    std::string self = driver::SelfExe();
    co.confirm.gordian = self.empty() ? "gordian" : self;
    co.confirm.verbose = c.verbose;
    for (auto& s : strategies) co.strategies.push_back(s.get());
    Progress progress(cmd, c.report.quiet);
    std::string label = fmt::format("{} ({} of {})", tt.name, k + 1, tests.size());
    auto say = [&](const fuzz::CampaignStats& s) {
      progress.Say(fmt::format("{}: {} runs, {:.1f} runs/s, coverage {}, {}", label, s.runs,
                               s.elapsed > 0 ? s.runs / s.elapsed : 0.0, s.coverage,
                               BugsText(s.bugs)));
    };
    fuzz::CampaignResult res;
    fuzz::RunCampaign(co, &res, say);
    progress.Clear();
    if (driver::Interrupted()) break;  // no report of a campaign cut short
    const fuzz::CampaignStats& s = res.stats;
    if (!c.report.quiet) {
      fmt::print(stderr, "{}: {}: {} runs in {:.1f}s ({:.1f} runs/s), coverage {}, stopped: {}{}{}\n",
                 cmd, tt.name, s.runs, s.elapsed, s.elapsed > 0 ? s.runs / s.elapsed : 0.0,
                 s.coverage, s.stopped,
                 s.killed_runs > 0 ? fmt::format("; {} run(s) killed at -run-wall", s.killed_runs)
                                   : "",
                 s.corpus_read + s.corpus_added > 0
                     ? fmt::format("; corpus: {} run first, {} added to {}", s.corpus_read,
                                   s.corpus_added, co.corpus_dir)
                     : "");
      for (size_t i = 0; i < res.findings.size(); i++) {
        const report::Finding& f = res.findings[i];
        if (f.severity == report::Severity::Info) continue;
        std::string where = f.locations.empty()
                                ? std::string("?")
                                : fmt::format("{}:{}", fs::path(f.locations[0].file).filename().string(),
                                              f.locations[0].line);
        fmt::print(stderr, "{}: {}: {} at {} ({}) after {:.1f}s{}\n", cmd, tt.name,
                   report::KindName(f.kind), where, report::StatusName(f.status),
                   res.found_at[i], c.verbose ? " by " + res.found_by[i] : "");
      }
    }
    if (const fuzz::TestFailures& tf = res.test_failures; tf.runs > 0) {
      // Once per test, however many runs failed.
      fmt::print(stderr,
                 "{}: {}: the test failed in {} of {} runs with no concurrency finding to "
                 "explain it (first after {:.1f}s, {}){}\n",
                 cmd, tt.name, tf.runs, s.runs, tf.first_at, tf.first_by,
                 tf.output.empty() ? "" : ":");
      if (!tf.output.empty()) {
        std::string indented = "    " + tf.output;
        for (size_t at = 0; (at = indented.find('\n', at)) != std::string::npos; at += 5) {
          indented.insert(at + 1, "    ");
        }
        fmt::print(stderr, "{}\n", indented);
      }
      fuzz_report.test_failures.push_back(report::FuzzTestFailure{
          tt.package, tt.name, tf.runs, s.runs, tf.first_by, tf.output});
      // go test would have failed under that schedule: so does the verdict.
      bool in_verdict = false;
      for (report::TestVerdict& v : verdict.tests) {
        if (v.package == tt.package && v.name == tt.name) {
          in_verdict = true;
          if (v.result == report::TestResult::Pass) v.result = report::TestResult::Fail;
        }
      }
      if (!in_verdict) {
        verdict.tests.push_back(report::TestVerdict{tt.package, tt.name, report::TestResult::Fail});
      }
    }
    for (const std::string& w : res.warnings) {
      fmt::print(stderr, "{}: {}: corpus: {}\n", cmd, tt.name, w);
    }
    for (const std::string& e : res.errors) {
      fmt::print(stderr, "{}: {}: {} run(s) failed: {}\n", cmd, tt.name, s.failed_runs, e);
    }
    if (s.runs == 0) {
      fmt::print(stderr, "{}: {}: no run gave a trace\n", cmd, tt.name);
      return kExitToolError;
    }
    for (report::Finding& f : res.findings) all.push_back(std::move(f));
  }
  if (driver::Interrupted()) {
    fmt::print(stderr, "{}: interrupted; no report\n", cmd);
    return kExitToolError;
  }
  ReportOptions ropt = c.report;
  ropt.confirm_summary = !c.no_confirm;
  if (c.no_confirm) ropt.unconfirmed_note = "confirmation is off (--no-confirm)";
  ropt.fuzz = std::move(fuzz_report);
  return Report(cmd, std::move(all), ropt, &verdict);
}

}  // namespace gordian::cli
