// This file implements `gordian analyze TRACE-DIR...`: offline analysis of
// recorded traces. Each trace is read, analysed (occurred and predicted
// findings: pipeline/analyze_trace.h), and all findings are reported
// together (reporting.h). With --html, the page also draws the whole run of
// each trace (pipeline/timeline_of_trace.h).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/progress.h"
#include "gordian/cli/reporting.h"
#include "gordian/driver/deadline.h"
#include "gordian/driver/trace_dirs.h"
#include "gordian/pipeline/analysis_progress.h"
#include "gordian/pipeline/analyze_trace.h"
#include "gordian/pipeline/timeline_of_trace.h"
#include "gordian/trace/trace.h"
#include "gordian/util/duration.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

int RunAnalyze(const std::vector<std::string>& args) {
  const std::string cmd = "gordian analyze";
  util::FlagSet flags(cmd);
  flags.Interspersed();  // flags may follow the paths
  ReportOptions ropt;
  pipeline::AnalyzeOptions aopt;
  bool no_predict = false;
  std::string wall = "0";
  std::string mem;
  AddReportFlags(&flags, &ropt);
  flags.String("wall", &wall, "DURATION", "stop after this long, with no report (default 0: never)");
  AddMemFlag(&flags, &mem);
  flags.Bool("no-predict", &no_predict, "report only what occurred in the recorded run");
  flags.Bool("verbose", &aopt.verbose, "also print the analysis engine's notes about the trace");
  std::vector<std::string> dirs;
  const char* usage =
      "usage: gordian analyze [flags] TRACE-DIR...\n\n"
      "Analyses traces recorded by 'gordian record' (or kept by 'gordian test\n"
      "--keep'): bugs that occurred in the run, and bugs another schedule of\n"
      "the same run can produce. Prints a report; --json, --sarif and --html write\n"
      "machine reports and a page. Exit status: 0 no bug, 1 bugs found, 2 gordian failed.\n\n";
  if (auto done = ParseCommandLine(&flags, args, &dirs, usage)) return *done;
  if (auto bad = CheckReportFlags(cmd, ropt)) return *bad;
  std::string err;
  if (dirs.empty()) {
    return UsageError(fmt::format("{}: missing TRACE-DIR (see '{} --help')", cmd, cmd));
  }
  double wall_seconds = 0;
  if (!util::ParseDuration(wall, &wall_seconds, &err)) {
    return UsageError(fmt::format("{}: -wall {:?}: {}", cmd, wall, err));
  }
  if (!ParseMemFlag(cmd, mem, &aopt.memory_budget, &err)) return UsageError(err);
  driver::ArmDeadline(wall_seconds, fmt::format("{}: the analysis passed the -wall limit ({}); "
                                                "nothing is reported. Raise -wall",
                                                cmd, wall));
  aopt.predict = !no_predict;
  std::vector<report::Finding> findings;
  std::vector<std::string> degraded;
  aopt.degraded = &degraded;
  bool incomplete = false;
  aopt.incomplete = &incomplete;
  Progress line(cmd, ropt.quiet);
  // Every directory a command writes is accepted: a run trace (events.bin),
  // a `record test` or `test --keep` directory (packages.txt and one trace
  // per package), as dump and replay accept them.
  for (const std::string& dir : dirs) {
    std::vector<driver::PackageTrace> traces;
    if (!driver::ListTraces(dir, &traces, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
    if (traces.empty()) {
      fmt::print(stderr, "{}: {}: the trace index lists no recorded package\n", cmd, dir);
      return kExitToolError;
    }
    for (const driver::PackageTrace& t : traces) {
      pipeline::ThrottledProgress progress([&](const std::string& s) { line.Say(s); },
                                           t.trace_dir, Progress::AnalysisInterval());
      aopt.progress = &progress;
      aopt.package = t.import_path;
      bool ok;
      if (ropt.html_path.empty()) {
        ok = pipeline::AnalyzeTrace(cmd, t.trace_dir, aopt, &findings, &err);
      } else {
        // The page also draws the whole run: keep the trace for it.
        progress.Update("reading", 0, 0);
        trace::Trace tr;
        ok = trace::ReadTrace(t.trace_dir, &tr, &err);
        if (ok) {
          pipeline::TraceAnalysis analysis;
          pipeline::AnalyzeRead(cmd, tr, t.trace_dir, aopt, &analysis, &findings);
          ropt.runs.push_back(
              pipeline::RunTimelineOf(tr, t.import_path.empty() ? t.trace_dir : t.import_path));
        }
      }
      aopt.progress = nullptr;
      line.Clear();
      if (!ok) {
        fmt::print(stderr, "{}: {}\n", cmd, err);
        return kExitToolError;
      }
    }
  }
  ropt.degraded = std::move(degraded);
  ropt.incomplete = incomplete;
  ropt.unconfirmed_note = "gordian analyze does not replay (gordian test confirms by replay)";
  return Report(cmd, std::move(findings), ropt);
}

}  // namespace gordian::cli
