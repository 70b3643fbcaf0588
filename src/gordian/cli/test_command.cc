// This file implements the two commands a Go developer runs first:
//   gordian test [flags] [go test flags] [packages]
//   gordian run  [flags] [build flags] [package] [-- args]
// Each records the run, analyses every package's trace and confirms its
// findings by replay (pipeline/pipeline.h), and prints one report for all
// of them (reporting.h). go test's flags pass through; gordian's
// own flags may come anywhere before the packages' test binary arguments.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/progress.h"
#include "gordian/cli/reporting.h"
#include "gordian/cli/shard_flag.h"
#include "gordian/driver/record.h"
#include "gordian/pipeline/analysis_pool.h"
#include "gordian/pipeline/pipeline.h"
#include "gordian/util/duration.h"
#include "gordian/util/flags.h"

namespace gordian::cli {
namespace {

namespace fs = std::filesystem;

struct Common {
  ReportOptions report;
  std::string keep;          // keep the traces in this directory
  std::string wall = "10m";  // kill the run after this long
  bool no_predict = false;
  bool quiet_program = false;
  bool verbose = false;
  bool no_confirm = false;             // confirmation by replay (pipeline/confirm.h)
  std::string confirm_budget = "60";   // seconds per trace
  std::string settle;                  // GORDIAN_SETTLE for the program: "" = its default
  std::string mem;                     // the analysis memory budget: "" = the default
};

void AddCommonFlags(util::FlagSet* flags, Common* c) {
  AddReportFlags(flags, &c->report);
  flags->String("keep", &c->keep, "DIR",
                "keep the recorded traces in DIR (for 'gordian analyze DIR/...')");
  flags->String("wall", &c->wall, "DURATION",
                "kill the run (its build included) after this long, and stop the analysis "
                "and confirmation after as long again (default 10m; 0 = never)");
  flags->Bool("no-predict", &c->no_predict, "report only what occurred in the recorded run");
  flags->Bool("verbose", &c->verbose, "also print the analysis engine's notes about the traces");
  flags->Bool("quiet-program", &c->quiet_program,
              "do not pass the program's (or go test's) output through");
  // Confirmation by replay (pipeline/confirm.h).
  flags->Bool("no-confirm", &c->no_confirm,
              "no replay runs: predicted bugs are not confirmed, occurred ones get no reproduce");
  flags->String("confirm-budget", &c->confirm_budget, "SECONDS",
                "time for replaying one test's (program's) predicted bugs (default 60)");
  flags->String("settle", &c->settle, "DURATION",
                "at each test's end and at exit, wait up to this long for the goroutines still "
                "running or asleep to finish or block before leaks are reported (default 1s)");
  AddMemFlag(flags, &c->mem);
}

// gordian's own flags may follow the packages (`gordian test ./... --json f`);
// they are taken out of the go test arguments up to -args.
void ExtractOwnFlags(const std::vector<std::string>& in, std::vector<std::string>* own,
                     std::vector<std::string>* rest) {
  static const char* kValued[] = {"json", "sarif", "html", "root", "keep", "wall", "confirm-budget",
                                  "settle", "mem", "shard", "p"};
  static const char* kBool[] = {"info", "quiet", "no-predict", "quiet-program", "verbose",
                                "no-confirm", "unconfirmed"};
  bool after_args = false;
  for (size_t i = 0; i < in.size(); i++) {
    const std::string& a = in[i];
    if (after_args || a == "-args" || a == "--args" || a.size() < 2 || a[0] != '-') {
      after_args = after_args || a == "-args" || a == "--args";
      rest->push_back(a);
      continue;
    }
    std::string body = a.substr(a[1] == '-' ? 2 : 1);
    std::string name = body.substr(0, body.find('='));
    bool has_value = body.find('=') != std::string::npos;
    bool mine = false;
    for (const char* v : kValued) {
      if (name == v) {
        mine = true;
        own->push_back(a);
        if (!has_value && i + 1 < in.size()) own->push_back(in[++i]);
      }
    }
    for (const char* b : kBool) {
      if (name == b) {
        mine = true;
        own->push_back(a);
      }
    }
    if (!mine) rest->push_back(a);
  }
}

// Records with the driver, analyses every trace, confirms
// (pipeline/pipeline.h), reports.
int RecordAndReport(const std::string& cmd, driver::RecordMode mode, const Common& c,
                    std::vector<std::string> go_args, int jobs = 1) {
  if (auto bad = CheckReportFlags(cmd, c.report)) return *bad;
  pipeline::PipelineOptions po;
  po.cmd = cmd;
  po.jobs = jobs;
  driver::RecordOptions& ro = po.record;
  ro.mode = mode;
  ro.args = go_args;
  ro.pass_through = !c.quiet_program;
  // A report on stdout (--json -) must be all that is there.
  ro.stdout_to_stderr = c.report.json_path == "-" || c.report.sarif_path == "-" ||
                        c.report.html_path == "-";
  std::string derr;
  if (!util::ParseDuration(c.wall, &ro.wall_seconds, &derr)) {
    return UsageError(fmt::format("{}: -wall {:?}: {}", cmd, c.wall, derr));
  }
  if (!c.settle.empty()) {
    double settle = 0;
    if (!util::ParseDuration(c.settle, &settle, &derr)) {
      return UsageError(fmt::format("{}: -settle {:?}: {}", cmd, c.settle, derr));
    }
    // The recorder reads Go duration syntax; milliseconds are exact enough.
    ro.env["GORDIAN_SETTLE"] = fmt::format("{}ms", static_cast<long long>(settle * 1000 + 0.5));
  }
  // Confirmation by replay (pipeline/confirm.h).
  pipeline::ConfirmOptions& confirm = po.confirm;
  confirm.enabled = !c.no_confirm;
  if (!util::ParseDuration(c.confirm_budget, &confirm.per_test_seconds, &derr)) {
    return UsageError(fmt::format("{}: --confirm-budget {:?}: {}", cmd, c.confirm_budget, derr));
  }
  confirm.per_finding_seconds = std::min(confirm.per_finding_seconds, confirm.per_test_seconds);
  confirm.pass_through = false;
  confirm.verbose = c.verbose;
  if (!ParseMemFlag(cmd, c.mem, &po.memory_budget, &derr)) return UsageError(derr);
  po.keep = c.keep;
  po.predict = !c.no_predict;
  po.verbose = c.verbose;
  po.deadline_message = fmt::format("{}: the analysis passed the -wall limit ({}); nothing is "
                                    "reported. Raise -wall, or keep the traces (-keep DIR) and "
                                    "run gordian analyze on them",
                                    cmd, c.wall);
  // The progress line (while go test runs, then the analysis) and its time.
  Progress progress(cmd, c.report.quiet);
  po.progress = [&](const std::string& what) { progress.Say(what); };
  po.progress_clear = [&] { progress.Clear(); };
  po.progress_pause = [&] { progress.Pause(); };
  po.progress_resume = [&] { progress.Resume(); };
  po.progress_interval = Progress::AnalysisInterval();
  po.recorded = [&](const driver::RecordResult& res) {
    // The go command's output went to the terminal already (pass-through):
    // its compile errors are not printed a second time.
    auto print_build_errors = [&] {
      if (ro.pass_through || res.build_errors.empty()) return;
      for (const auto& e : res.build_errors) fmt::print(stderr, "{}\n", e.String());
    };
    if (res.build_failed && res.traces.empty()) {
      print_build_errors();
      if (res.run.timed_out) {
        fmt::print(stderr, "{}: the build did not finish within the -wall limit ({}); raise "
                   "-wall\n", cmd, c.wall);
      } else if (res.build_errors.empty()) {
        fmt::print(stderr, "{}: the build failed ({}); see the go command's output above\n", cmd,
                   res.run.Describe());
      } else {
        fmt::print(stderr, "{}: the build failed; fix the errors above and run again\n", cmd);
      }
      return false;
    }
    if (res.traces.empty()) {
      fmt::print(stderr, "{}: nothing was recorded: {} ({}){}\n", cmd,
                 mode == driver::RecordMode::kTest ? "go test ran no test binary"
                                                   : "the program did not run",
                 res.run.Describe(),
                 mode == driver::RecordMode::kTest ? "; do the packages have test files?" : "");
      return false;
    }
    if (res.run.timed_out) {
      fmt::print(stderr, "{}: the run was killed at the {} limit (-wall); the report covers what "
                 "was recorded until then\n", cmd, c.wall);
    }
    if (res.build_failed) {
      print_build_errors();
      fmt::print(stderr, "{}: some packages did not build (see the errors above); the report "
                 "covers the others\n", cmd);
    }
    return true;
  };

  pipeline::PipelineResult res;
  pipeline::RunPipeline(po, &res);
  progress.Clear();
  switch (res.end) {
    case pipeline::PipelineEnd::kFailed:
      fmt::print(stderr, "{}: {}\n", cmd, res.err);
      return kExitToolError;
    case pipeline::PipelineEnd::kInterrupted:
      fmt::print(stderr, "{}: interrupted; nothing is reported from a run that did not end by "
                 "itself{}\n", cmd, c.keep.empty() ? "" : fmt::format(" (the trace so far is in {})",
                                                                        c.keep));
      return kExitToolError;
    case pipeline::PipelineEnd::kStopped:
      return kExitToolError;
    case pipeline::PipelineEnd::kAnalysisInterrupted:
      fmt::print(stderr, "{}: interrupted while analysing and confirming; no report\n", cmd);
      return kExitToolError;
    case pipeline::PipelineEnd::kAnalysed:
      break;
  }
  if (res.unreadable == res.record.traces.size()) return kExitToolError;
  ReportOptions ropt = c.report;
  ropt.confirm_summary = res.replayed;
  if (c.no_confirm) ropt.unconfirmed_note = "confirmation is off (--no-confirm)";
  ropt.degraded = res.degraded;
  ropt.incomplete = res.incomplete > 0;
  int status = Report(cmd, std::move(res.findings), ropt, &res.verdict);
  if (res.record.build_failed && status != kExitToolError) status = kExitToolError;
  if (!c.keep.empty() && !c.report.quiet) {
    fmt::print(stderr, "{}: traces kept in {} (gordian analyze, gordian trace dump)\n", cmd,
               res.record.out_dir);
  }
  return res.unreadable > 0 ? kExitToolError : status;
}

}  // namespace

int RunTest(const std::vector<std::string>& args) {
  const std::string cmd = "gordian test";
  std::vector<std::string> own, rest;
  ExtractOwnFlags(args, &own, &rest);
  util::FlagSet flags(cmd);
  Common c;
  AddCommonFlags(&flags, &c);
  std::string shard;
  flags.String("shard", &shard, "I/N",
               "run only shard I of N (0 <= I < N): the tests whose name hashes to I; shards "
               "0 to N-1 together run every test once (docs/scale.md, gordian merge)");
  long jobs = 0;
  flags.Int("p", &jobs, "N",
            "build and run N packages at once (go test's -p) and analyse and confirm N traces "
            "at once, sharing the -mem budget (default: the number of cores)");
  std::vector<std::string> positional;
  bool help = false;
  std::string err;
  if (!flags.Parse(own, &positional, &help, &err)) return UsageError(err);
  // go test has a boolean -json; ours takes a file. Refuse what looks like a
  // package pattern rather than overwrite it.
  for (const std::string* f :
       {&c.report.json_path, &c.report.sarif_path, &c.report.html_path}) {
    std::error_code ec;
    if (f->find("...") != std::string::npos || (!f->empty() && *f != "-" &&
                                                fs::is_directory(*f, ec))) {
      return UsageError(fmt::format(
          "{}: --json, --sarif and --html take a file name, not {:?} (go test's own -json output is "
          "not available through gordian test)",
          cmd, *f));
    }
  }
  for (const std::string& a : rest) {
    if (a == "-h" || a == "-help" || a == "--help") help = true;
  }
  if (help) {
    fmt::print(
        "usage: gordian test [flags] [go test flags] [packages]\n\n"
        "Runs the package tests the way 'go test' does (its flags pass through,\n"
        "e.g. -run TestX, -count, -timeout, -tags), with gordian's recorder on;\n"
        "then reports the concurrency bugs that occurred and those another\n"
        "schedule of the same run can produce: one report for all packages.\n"
        "Exit status, as go test's: 0 all tests passed and no bug, 1 a test failed\n"
        "or bugs were found, 2 gordian or the build failed (a package that does\n"
        "not build, no test ran, a report that cannot be written).\n\nFlags:\n{}",
        flags.Usage());
    return kExitOK;
  }
  // -p is go test's: packages built and run at once; gordian analyses and
  // confirms as many traces at once (pipeline/analysis_pool.h).
  if (jobs < 0) return UsageError(fmt::format("{}: -p takes a count of 1 or more", cmd));
  if (jobs > 0) rest.insert(rest.begin(), fmt::format("-p={}", jobs));
  double wall = 0;
  if (!shard.empty() && !util::ParseDuration(c.wall, &wall, &err)) {
    return UsageError(fmt::format("{}: -wall {:?}: {}", cmd, c.wall, err));
  }
  if (auto done = ApplyShardFlag(cmd, shard, wall, c.report, &rest)) return *done;
  return RecordAndReport(cmd, driver::RecordMode::kTest, c, rest,
                         jobs > 0 ? static_cast<int>(jobs) : pipeline::DefaultJobs());
}

int RunRun(const std::vector<std::string>& args) {
  const std::string cmd = "gordian run";
  util::FlagSet flags(cmd);
  Common c;
  AddCommonFlags(&flags, &c);
  std::vector<std::string> go_flags;
  flags.PassThroughUnknown(&go_flags);
  std::vector<std::string> positional;
  const char* usage =
      "usage: gordian run [flags] [build flags] [package] [-- args]\n\n"
      "Builds and runs a main package the way 'go run' does, with gordian's\n"
      "recorder on, passing args to the program; then reports the concurrency\n"
      "bugs that occurred and those another schedule can produce.\n"
      "Exit status: 0 the program exited 0 and no bug, 1 bugs found or the\n"
      "program failed, 2 gordian or the build failed.\n\nFlags:\n";
  if (auto done = ParseCommandLine(&flags, args, &positional, usage)) return *done;
  std::vector<std::string> go_args = go_flags;
  go_args.insert(go_args.end(), positional.begin(), positional.end());
  return RecordAndReport(cmd, driver::RecordMode::kRun, c, go_args);
}

}  // namespace gordian::cli
