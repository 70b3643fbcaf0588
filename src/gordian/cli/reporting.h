// This file holds what `gordian analyze`, `gordian test` and `gordian run`
// share between the findings of the pipeline (pipeline/analyze_trace.h,
// pipeline/pipeline.h) and the user: reporting the findings of one or more
// traces together (columns from the source, module-relative paths,
// de-duplication, the terminal report, --json, --sarif and -html files, the exit
// status).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/json.h"
#include "gordian/report/run_timeline.h"
#include "gordian/report/verdict.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

struct ReportOptions {
  std::string json_path;   // "" = none, "-" = stdout (the terminal report then goes to stderr)
  std::string sarif_path;  // same
  std::string html_path;   // same: one self-contained HTML page (report/html.h)
  std::string root;        // module root for relative paths; "" = that of the working directory
  bool show_info = false;  // print info findings in the terminal report
  bool quiet = false;      // no terminal report (machine reports and exit status only)
  bool show_unconfirmed = false;  // print predictions a replay refuted (-unconfirmed)
  bool confirm_summary = false;   // not a flag: confirmation ran; say what it did (stderr)
  // Not a flag: why a predicted bug that the confirmation left no note on
  // was not confirmed (report::SettleUnconfirmed).
  std::string unconfirmed_note = "no replay was tried";
  // Not a flag: what the analysis dropped to stay within its memory budget
  // (pipeline/memory_budget.h); every report says it.
  std::vector<std::string> degraded;
  // Not a flag: some trace is incomplete (the recording stopped before the
  // program did: a full disk, the size limit). With no bug found the
  // command exits 2: it cannot say "no bug" for what it did not see.
  bool incomplete = false;
  // Not a flag: gordian fuzz's part of the JSON report (its seed).
  std::optional<report::FuzzReport> fuzz;
  // Not a flag: whole runs the HTML report draws after the findings
  // (`gordian analyze --html`: every goroutine of each trace).
  std::vector<report::RunTimeline> runs;
  // Not a flag: lines said before the report (stderr), such as which tests
  // a fuzz campaign could not fuzz.
  std::vector<std::string> notes;
};

// Registers --json, --sarif, --html, --root, --info, --quiet and --unconfirmed on flags.
void AddReportFlags(util::FlagSet* flags, ReportOptions* opt);

// A usage error (exit 2) when the report flags ask for something that
// cannot be: two reports on standard output, which would be one stream a
// reader cannot split. nullopt when they are fine.
std::optional<int> CheckReportFlags(const std::string& cmd, const ReportOptions& opt);

// Registers -mem SIZE (the analysis memory budget) of analyze, test and run.
void AddMemFlag(util::FlagSet* flags, std::string* mem);
// Parses -mem's value into *bytes (0 when "": the default budget); false
// with a one-line *err ("gordian test: -mem \"0\": zero bytes; ...").
bool ParseMemFlag(const std::string& cmd, const std::string& mem, uint64_t* bytes,
                  std::string* err);

// Finishes and prints the findings of one command: makes paths relative,
// de-duplicates, writes the requested reports and the terminal report (led
// by the tests' verdict when there is one). Returns the exit status: 0 no
// bug and no failed test, 1 bugs found or a test failed, 2 a report could
// not be written.
int Report(const std::string& cmd, std::vector<report::Finding> findings,
           const ReportOptions& opt, const report::Verdict* verdict = nullptr);

// Writes the report files opt asks for (--json, --sarif, --html, but not
// those going to stdout) of findings as they stand, without printing the
// report: a long command (gordian fuzz) rewrites them as it finds bugs, so
// that a run killed later loses nothing. False when one cannot be written
// (said on stderr).
bool WriteReportFiles(const std::string& cmd, std::vector<report::Finding> findings,
                      const ReportOptions& opt, const report::Verdict* verdict = nullptr);

// "confirmed K of N predicted bugs by replay" and "K of N occurred bugs
// replay", counted over the findings the report shows (de-duplicated, what
// the report drops left out), so that the line agrees with the summary.
void PrintConfirmSummary(const std::string& cmd, const std::vector<report::Finding>& findings);

}  // namespace gordian::cli
