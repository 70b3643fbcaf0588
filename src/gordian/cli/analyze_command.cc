// This file implements `gordian analyze TRACE-DIR...`: offline analysis of
// recorded traces. Each trace is read, analysed (occurred and predicted
// findings), and all findings are reported together.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/analysis.h"
#include "gordian/cli/command.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

int RunAnalyze(const std::vector<std::string>& args) {
  const std::string cmd = "gordian analyze";
  util::FlagSet flags(cmd);
  ReportOptions ropt;
  AnalyzeOptions aopt;
  bool no_predict = false;
  AddReportFlags(&flags, &ropt);
  flags.Bool("no-predict", &no_predict, "report only what occurred in the recorded run");
  flags.Bool("verbose", &aopt.verbose, "also print the analysis engine's notes about the trace");
  std::vector<std::string> dirs;
  bool help = false;
  std::string err;
  if (!flags.Parse(args, &dirs, &help, &err)) return UsageError(err);
  if (help) {
    fmt::print(
        "usage: gordian analyze [flags] TRACE-DIR...\n\n"
        "Analyses traces recorded by 'gordian record' (or kept by 'gordian test\n"
        "--keep'): bugs that occurred in the run, and bugs another schedule of\n"
        "the same run can produce. Prints a report; --json and --sarif write\n"
        "machine reports. Exit status: 0 no bug, 1 bugs found, 2 gordian failed.\n\n{}",
        flags.Usage());
    return kExitOK;
  }
  if (dirs.empty()) {
    return UsageError(fmt::format("{}: missing TRACE-DIR (see '{} --help')", cmd, cmd));
  }
  aopt.predict = !no_predict;
  std::vector<report::Finding> findings;
  for (const std::string& dir : dirs) {
    if (!AnalyzeTrace(cmd, dir, aopt, &findings, &err)) {
      fmt::print(stderr, "{}: {}\n", cmd, err);
      return kExitToolError;
    }
  }
  return Report(cmd, std::move(findings), ropt);
}

}  // namespace gordian::cli
