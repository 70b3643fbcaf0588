// This file implements the command line of `gordian fuzz [flags] [go test
// flags] [packages]`: its flags, and the report of what the campaigns
// (fuzz/campaigns.h) found, as `gordian test` prints it (reporting.h), led
// by the verdict of each test's first run. The report files are rewritten
// after every bug found, so that a run killed later loses nothing.
#include <algorithm>
#include <charconv>
#include <cstdint>
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
#include "gordian/fuzz/campaigns.h"
#include "gordian/fuzz/strategy.h"
#include "gordian/pipeline/binary_runner.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/schedule/from_trace.h"
#include "gordian/trace/summary.h"
#include "gordian/util/duration.h"

namespace gordian::cli {
namespace {

struct FuzzFlags {
  ReportOptions report;
  std::string budget = "60s";
  std::string stale = "10s";
  std::string run_wall = "30s";
  std::string wall = "10m";
  std::string total;       // "" no total
  long jobs = 0;
  long max_runs = 0;
  bool verbose = false;
  bool no_confirm = false;
  std::string strategies;  // "" all
  std::string seed;        // "" a new one
  std::string corpus;      // "" the cache; "off" none
  std::string shard;       // "" all tests; "I/N" shard I of N
  bool go_test_per_run = false;
  bool exact = false;
};

// Declares the flags of gordian fuzz, their values into c.
void DeclareFuzzFlags(util::FlagSet* flags_in, FuzzFlags* c) {
  util::FlagSet& flags = *flags_in;
  AddReportFlags(&flags, &c->report);
  flags.String("budget", &c->budget, "DURATION", "fuzzing time per test (default 60s)");
  flags.String("stale", &c->stale, "DURATION",
               "stop a test's fuzzing early when its coverage has not grown for this long "
               "(default 10s; 0 = never)");
  flags.Int("j", &c->jobs, "N", "runs at once (default: the number of cores)");
  flags.Int("max-runs", &c->max_runs, "N", "at most N runs per test (default 0: no limit)");
  flags.String("run-wall", &c->run_wall, "DURATION",
               "kill one run (its build included) after this long (default 30s)");
  flags.String("total", &c->total, "DURATION",
               "the whole campaign: the tests share it (each gets an equal part of what is "
               "left; -budget and -run-wall shrink to fit), and the command ends within it "
               "(default: no total; each test ends within -budget + -run-wall + 5s)");
  flags.String("wall", &c->wall, "DURATION",
               "kill the build of the tests and their listing after this long (default 10m)");
  flags.Bool("verbose", &c->verbose, "say what each confirmation did and each new bug's run");
  flags.Bool("no-confirm", &c->no_confirm,
             "do not replay new bugs: predicted ones stay predicted, occurred ones get no "
             "reproduce");
  flags.String("strategies", &c->strategies, "LIST",
               "the strategies to combine, by name, comma-separated (default: all of "
               "prediction, flip, select, delay, chain, pairs)");
  flags.String("seed", &c->seed, "N",
               "the seed of every random choice (default: a new one, printed and in the "
               "JSON report); the same seed and the same runs give the same schedules");
  flags.String("corpus", &c->corpus, "DIR",
               "keep the schedules that add coverage, and those of bugs, in "
               "DIR/<package>/<test>/ and run them first next time (default: the gordian cache, "
               "and bug schedules in testdata/gordian-fuzz/<test>/ in the package; off: none, "
               "and no bug schedules either)");
  flags.Bool("exact", &c->exact,
             "with -j above 1, run k waits for the proposals of runs up to k-j, so that a seed "
             "repeats the sequence of schedules; costs runs per second when runs vary in length");
  flags.Bool("go-test-per-run", &c->go_test_per_run,
             "run each schedule with go test (which links the test binary again every run) "
             "instead of the package's test binary built once");
  flags.String("shard", &c->shard, "I/N",
               "fuzz only shard I of N (0 <= I < N): the tests whose name hashes to I; shards "
               "0 to N-1 together fuzz every test once (docs/scale.md, gordian merge)");
}

constexpr const char* kFuzzUsage =
    "usage: gordian fuzz [flags] [go test flags] [packages]\n\n"
    "Explores schedules of each test of the packages (the tests go test runs;\n"
    "-run selects): runs the test under schedules made from what the analysis\n"
    "of earlier runs predicts (other partners, other select cases, other lock\n"
    "orders), keeps what adds coverage, and reports every bug found in any\n"
    "run once, confirmed by replay, with a reproduce command.\n"
    "Each test ends within -budget + -run-wall + 5s, whatever it does (-total\n"
    "bounds the whole); a test that does not end within -run-wall is not fuzzed.\n"
    "Each bug is written as soon as it is found: the report files (--json,\n"
    "--sarif, --html) and the schedule that reproduces it, in the package's\n"
    "testdata/gordian-fuzz/<test>/ (run first next time). The working corpus\n"
    "lives in the gordian cache. An interrupt stops the campaign and reports\n"
    "what was found.\n"
    "Exit status, as gordian test's: 0 all tests passed and no bug, 1 a test\n"
    "failed or bugs were found, 2 gordian or the build failed (or an interrupt\n"
    "before any bug).\n\nFlags:\n";

// The flags' values as the campaigns take them.
struct FuzzSettings {
  double budget = 0, stale = 0, run_wall = 0, wall = 0, total = 0;
  uint64_t seed = 0;
  int jobs = 1;
  std::vector<std::unique_ptr<fuzz::Strategy>> strategies;
};

// Reads the durations, the seed (a new one when none is given), the
// counts and the strategies of c into s; an exit status when one is
// refused (said on stderr).
std::optional<int> ReadFuzzFlags(const std::string& cmd, const FuzzFlags& c, FuzzSettings* s) {
  std::string derr;
  for (auto [name, text, out] : {std::tuple{"budget", &c.budget, &s->budget},
                                 std::tuple{"stale", &c.stale, &s->stale},
                                 std::tuple{"run-wall", &c.run_wall, &s->run_wall},
                                 std::tuple{"wall", &c.wall, &s->wall},
                                 std::tuple{"total", &c.total, &s->total}}) {
    if (text->empty()) continue;
    if (!util::ParseDuration(*text, out, &derr)) {
      return UsageError(fmt::format("{}: -{} {:?}: {}", cmd, name, *text, derr));
    }
  }
  if (s->budget <= 0) return UsageError(fmt::format("{}: -budget must be more than 0", cmd));
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
  s->seed = seed;
  if (c.jobs < 0 || c.max_runs < 0) {
    return UsageError(fmt::format("{}: -j and -max-runs take a count of 0 or more", cmd));
  }
  // Each run is a process and its trace: more at once than a machine has
  // cores only queues them (and -j 100000 made as many threads).
  constexpr long kMaxJobs = 256;
  if (c.jobs > kMaxJobs) {
    return UsageError(fmt::format("{}: -j {}: at most {} runs at once", cmd, c.jobs, kMaxJobs));
  }
  s->jobs = c.jobs > 0 ? static_cast<int>(c.jobs)
                       : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<fuzz::Strategy>>& strategies = s->strategies;
  strategies = fuzz::DefaultStrategies();
  if (!c.strategies.empty()) {
    std::vector<std::string> want;
    for (size_t at = 0; at <= c.strategies.size();) {
      size_t comma = std::min(c.strategies.find(',', at), c.strategies.size());
      want.push_back(c.strategies.substr(at, comma - at));
      at = comma + 1;
    }
    for (const std::string& w : want) {
      bool known = std::any_of(strategies.begin(), strategies.end(),
                               [&](const auto& st) { return w == st->Name(); });
      if (!known) {
        std::string names;
        for (const auto& st : strategies) names += std::string(names.empty() ? "" : ", ") + st->Name();
        return UsageError(fmt::format("{}: -strategies: no strategy {:?} ({})", cmd, w, names));
      }
    }
    std::erase_if(strategies, [&](const auto& st) {
      return std::find(want.begin(), want.end(), st->Name()) == want.end();
    });
  }
  return std::nullopt;
}

}  // namespace

int RunFuzz(const std::vector<std::string>& args) {
  const std::string cmd = "gordian fuzz";
  util::FlagSet flags(cmd);
  FuzzFlags c;
  DeclareFuzzFlags(&flags, &c);
  std::vector<std::string> go_flags;
  flags.PassThroughUnknown(&go_flags);
  std::vector<std::string> positional;
  if (auto done = ParseCommandLine(&flags, args, &positional, kFuzzUsage)) return *done;
  if (auto bad = CheckReportFlags(cmd, c.report)) return *bad;
  FuzzSettings set;
  if (auto bad = ReadFuzzFlags(cmd, c, &set)) return *bad;
  std::vector<std::string> go_args = go_flags;
  go_args.insert(go_args.end(), positional.begin(), positional.end());
  if (auto done = ApplyShardFlag(cmd, c.shard, set.wall, c.report, &go_args)) return *done;

  fuzz::CampaignDirs dirs;
  if (std::string err; !dirs.Make(&err)) {
    fmt::print(stderr, "{}: {}\n", cmd, err);
    return kExitToolError;
  }
  fuzz::CampaignsOptions fo;
  fo.cmd = cmd;
  fo.go_args = go_args;
  fo.budget_seconds = set.budget;
  fo.stale_seconds = set.stale;
  fo.run_wall_seconds = set.run_wall;
  fo.wall_seconds = set.wall;
  fo.total_seconds = set.total;
  fo.max_runs = static_cast<size_t>(c.max_runs);
  fo.jobs = set.jobs;
  fo.seed = set.seed;
  fo.exact = c.exact;
  fo.go_test_per_run = c.go_test_per_run;
  fo.confirm = !c.no_confirm;
  fo.verbose = c.verbose;
  fo.corpus = c.corpus;
  fo.write_regressions = c.corpus != "off";
  for (auto& s : set.strategies) fo.strategies.push_back(s.get());
  dirs.SetUp(&fo);
  Progress progress(cmd, c.report.quiet);
  fo.progress = [&](const std::string& what) { progress.Say(what); };
  fo.progress_clear = [&] { progress.Clear(); };
  fo.say = [&](const std::string& line) {
    if (!c.report.quiet) fmt::print(stderr, "{}\n", line);
  };
  ReportOptions ropt = c.report;
  ropt.confirm_summary = !c.no_confirm;
  if (c.no_confirm) ropt.unconfirmed_note = "confirmation is off (--no-confirm)";
  report::FuzzReport so_far;
  so_far.seed = set.seed;
  ropt.fuzz = so_far;
  // The report files follow every bug found: a campaign killed later (an
  // outer timeout, kill -9) has written what it found.
  fo.found = [&](const std::vector<report::Finding>& findings) {
    WriteReportFiles(cmd, findings, ropt);
  };
  fuzz::CampaignsResult res;
  fuzz::RunCampaigns(fo, &res);
  progress.Clear();
  if (res.end == fuzz::CampaignsResult::End::kFailed) {
    if (res.build_failed) {
      fmt::print(stderr, "{}: the build failed; fix the errors and run again\n", cmd);
    } else {
      fmt::print(stderr, "{}: {}\n", cmd, res.err);
    }
    return kExitToolError;
  }
  bool interrupted = res.end == fuzz::CampaignsResult::End::kInterrupted;
  for (const std::string& n : res.not_fuzzed) ropt.notes.push_back("not fuzzed: " + n);
  if (interrupted) {
    ropt.notes.push_back(fmt::format(
        "stopped after {} of {} tests ({}); the report holds what was found until then",
        res.fuzzed, res.tests, driver::Interrupted() ? "interrupted" : "the total was spent"));
  }
  ropt.fuzz = std::move(res.fuzz);
  bool any_bug = std::any_of(res.findings.begin(), res.findings.end(),
                             [](const report::Finding& f) { return report::CountsAsBug(f); });
  int status = Report(cmd, std::move(res.findings), ropt, &res.verdict);
  // Interrupted without a bug: no verdict (the tests were not all fuzzed).
  if (driver::Interrupted() && !any_bug && status == kExitOK) status = kExitToolError;
  return status;
}

}  // namespace gordian::cli
