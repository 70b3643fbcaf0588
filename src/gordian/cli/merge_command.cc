// This file implements `gordian merge [flags] REPORT.json...`: the JSON
// reports of several runs (the shards of one suite, docs/scale.md) read
// back, merged (report/merge.h) and reported as one run's findings are
// (reporting.h: de-duplicated by the same key, in every format).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/command.h"
#include "gordian/cli/reporting.h"
#include "gordian/report/json.h"
#include "gordian/report/merge.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

int RunMerge(const std::vector<std::string>& args) {
  const std::string cmd = "gordian merge";
  util::FlagSet flags(cmd);
  flags.Interspersed();  // flags may follow the reports
  ReportOptions ropt;
  AddReportFlags(&flags, &ropt);
  std::vector<std::string> paths;
  const char* usage =
      "usage: gordian merge [flags] REPORT.json...\n\n"
      "Merges the JSON reports of several gordian test or gordian fuzz runs\n"
      "(the shards of one suite: -shard I/N) into one report: a bug found in\n"
      "several is reported once, a test or package keeps its worst outcome.\n"
      "Prints it as gordian test does and writes --json and --sarif.\n"
      "Exit status, as gordian test's: 0 no bug and no failed test, 1 bugs\n"
      "found or a test failed, 2 a report could not be read or written.\n\nFlags:\n";
  if (auto done = ParseCommandLine(&flags, args, &paths, usage)) return *done;
  if (paths.empty()) {
    return UsageError(fmt::format("{}: no report given; pass the --json files of the runs to "
                                  "merge", cmd));
  }
  if (auto bad = CheckReportFlags(cmd, ropt)) return *bad;
  std::vector<report::JsonReport> reports;
  for (const std::string& p : paths) {
    // A report is a regular file of reasonable size: a FIFO would hang the
    // read and /dev/zero fill the memory.
    constexpr uintmax_t kMaxReportBytes = uintmax_t{1} << 30;
    std::error_code ec;
    std::filesystem::file_status st = std::filesystem::status(p, ec);
    if (ec || !std::filesystem::is_regular_file(st)) {
      fmt::print(stderr, "{}: {:?} is not a report file{}; pass the files gordian wrote with --json\n",
                 cmd, p, ec ? " (" + ec.message() + ")" : "");
      return kExitToolError;
    }
    if (std::filesystem::file_size(p, ec) > kMaxReportBytes) {
      fmt::print(stderr, "{}: {:?} is larger than 1 GiB: not a gordian report\n", cmd, p);
      return kExitToolError;
    }
    std::ifstream in(p, std::ios::binary);
    if (!in) {
      fmt::print(stderr, "{}: cannot read {:?}\n", cmd, p);
      return kExitToolError;
    }
    std::stringstream text;
    text << in.rdbuf();
    report::JsonReport r;
    std::string err;
    if (!report::FromJsonReport(text.str(), &r, &err)) {
      fmt::print(stderr, "{}: {:?}: {}; pass the files gordian wrote with --json\n", cmd, p, err);
      return kExitToolError;
    }
    for (const std::string& w : r.warnings) fmt::print(stderr, "{}: warning: {:?}: {}\n", cmd, p, w);
    reports.push_back(std::move(r));
  }
  report::JsonReport merged = report::MergeReports(reports);
  ropt.degraded = merged.degraded;
  if (merged.has_fuzz) ropt.fuzz = merged.fuzz;
  int status = Report(cmd, std::move(merged.findings), ropt,
                      merged.has_verdict ? &merged.verdict : nullptr);
  // gordian fuzz counts a test that failed without a bug as a failed test.
  if (status == kExitOK && merged.has_fuzz && !merged.fuzz.test_failures.empty()) {
    status = kExitFound;
  }
  return status;
}

}  // namespace gordian::cli
