// This file implements `gordian record`: build and run a Go program or its
// tests with the recorder on, leave the trace(s) in a directory, and print a
// one-line summary of each.
//   gordian record [-o DIR] [-wall DURATION] [-quiet] test [go test flags] [packages]
//   gordian record [-o DIR] [-wall DURATION] [-quiet] run [build flags] [package] [-- args]
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/trace/summary.h"
#include "gordian/trace/trace.h"
#include "gordian/util/duration.h"
#include "gordian/util/flags.h"

namespace gordian::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordUsage =
    "usage: gordian record [-o DIR] [-wall DURATION] [-quiet] test [go test flags] [packages]\n"
    "       gordian record [-o DIR] [-wall DURATION] [-quiet] run [build flags] [package] "
    "[-- args]\n\n"
    "Builds the program (run) or the package tests (test) with the stock go command and\n"
    "gordian's runtime hooks overlaid on the standard library, runs it with the recorder\n"
    "on, and leaves the trace in DIR (default ./gordian-trace). go's own flags pass\n"
    "through; the user's go.mod, build tags, cgo and vendor directories work as usual.\n"
    "'record test' writes one trace per test binary: DIR/<import path with _ for />/,\n"
    "listed in DIR/packages.txt. Inspect a trace with 'gordian trace dump DIR'.\n\n"
    "Exit status: 0 when a trace was recorded (whatever the program did: the summary\n"
    "says how it ended), 2 when it could not be (build failure, no test ran, bad usage).\n\n";

// dir relative to the current directory when it is below it ("./x").
std::string Pretty(const std::string& dir) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  fs::path rel = fs::path(dir).lexically_relative(cwd);
  if (ec || rel.empty() || rel.string().starts_with("..")) return dir;
  return rel == "." ? "." : "./" + rel.string();
}

std::string Plural(size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

int RunRecord(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == driver::kExecWrapperFlag) {
    return driver::ExecWrapper(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  util::FlagSet flags("gordian record");
  driver::RecordOptions opts;
  std::string wall = "10m";
  bool quiet = false;
  flags.String("o", &opts.out_dir, "DIR", "where to leave the trace (default ./gordian-trace)");
  flags.String("wall", &wall, "DURATION",
               "kill the program (its whole process group) after this long; 0 = never "
               "(default 10m; for test, go test as a whole, builds included)");
  flags.Bool("quiet", &quiet, "do not pass the program's (or go test's) output through");
  std::vector<std::string> rest;
  if (auto done = ParseCommandLine(&flags, args, &rest, kRecordUsage)) return *done;
  std::string err;
  if (!util::ParseDuration(wall, &opts.wall_seconds, &err)) {
    return UsageError(fmt::format("gordian record: -wall {:?}: {}", wall, err));
  }
  if (rest.empty() || (rest[0] != "test" && rest[0] != "run")) {
    return UsageError(rest.empty()
                          ? "gordian record: missing 'test' or 'run' (see 'gordian record --help')"
                          : fmt::format("gordian record: expected 'test' or 'run', got {:?} "
                                        "(see 'gordian record --help')",
                                        rest[0]));
  }
  opts.mode = rest[0] == "test" ? driver::RecordMode::kTest : driver::RecordMode::kRun;
  opts.args.assign(rest.begin() + 1, rest.end());
  opts.pass_through = !quiet;

  driver::RecordResult res;
  if (!driver::Record(opts, &res, &err)) {
    fmt::print(stderr, "gordian record: {}\n", err);
    return kExitToolError;
  }
  if (res.build_failed) {
    if (res.build_errors.empty()) {
      fmt::print(stderr, "gordian record: build failed ({}); see the go command's output above\n",
                 res.run.Describe());
    } else {
      fmt::print(stderr, "gordian record: build failed: {}{}\n", res.build_errors[0].String(),
                 res.build_errors.size() > 1
                     ? fmt::format(" (and {} more errors)", res.build_errors.size() - 1)
                     : "");
    }
    if (res.traces.empty()) return kExitToolError;
  }
  if (res.traces.empty()) {
    fmt::print(stderr, "gordian record: nothing was recorded: {} ran no program ({}){}\n",
               opts.mode == driver::RecordMode::kTest ? "go test" : "the run",
               res.run.Describe(),
               opts.mode == driver::RecordMode::kTest ? "; do the packages have test files?"
                                                      : "");
    return kExitToolError;
  }

  bool test = opts.mode == driver::RecordMode::kTest;
  size_t unreadable = 0;
  for (const driver::PackageTrace& p : res.traces) {
    trace::Trace t;
    if (!trace::ReadTrace(p.trace_dir, &t, &err)) {
      fmt::print(stderr, "gordian record: {}\n", err);
      unreadable++;
      continue;
    }
    trace::TraceSummary s = trace::Summarize(t);
    std::string line = fmt::format("{}, {}", Plural(s.goroutines, "goroutine", "goroutines"),
                                   Plural(s.records, "event", "events"));
    if (s.tests > 0) {
      line += fmt::format(", {}", Plural(s.tests, "test", "tests"));
      if (s.tests_failed > 0) line += fmt::format(" ({} failed)", s.tests_failed);
    }
    if (s.leaked > 0) {
      line += fmt::format(", {} at test end", Plural(s.leaked, "goroutine blocked", "goroutines blocked"));
    }
    std::string end = trace::DescribeEnd(s);
    if (!s.exited && (res.run.timed_out || res.run.interrupted)) end = "was " + res.run.Describe();
    if (s.truncated) end += " [trace truncated]";
    if (test) {
      fmt::print(stderr, "gordian record: {}: {}; {} -> {}\n",
                 p.import_path.empty() ? p.name : p.import_path, line, end,
                 Pretty(p.trace_dir));
    } else {
      fmt::print(stderr, "gordian record: {}; the program {}; trace in {}\n", line, end,
                 Pretty(p.trace_dir));
    }
  }
  if (test && res.traces.size() > 1) {
    fmt::print(stderr, "gordian record: {} in {} (go test: {})\n",
               Plural(res.traces.size(), "trace", "traces"), Pretty(res.out_dir),
               res.run.Describe());
  }
  if (res.build_failed) return kExitToolError;
  if (driver::Interrupted() || res.run.interrupted) {
    fmt::print(stderr, "gordian record: interrupted; the trace holds what was recorded until "
               "then\n");
    return kExitToolError;
  }
  return unreadable == res.traces.size() ? kExitToolError : kExitOK;
}

}  // namespace gordian::cli
