// This file holds what `gordian analyze`, `gordian test` and `gordian run`
// share between a recorded trace and the user: analysing one trace
// directory (reader, happens-before engine, occurred and predicted
// detectors) and reporting the findings of one or more traces together
// (columns from the source, module-relative paths, de-duplication, the
// terminal report, --json and --sarif files, the exit status).
#pragma once

#include <string>
#include <vector>

#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"
#include "gordian/trace/trace.h"
#include "gordian/util/flags.h"

namespace gordian::cli {

struct ReportOptions {
  std::string json_path;   // "" = none, "-" = stdout (the terminal report then goes to stderr)
  std::string sarif_path;  // same
  std::string root;        // module root for relative paths; "" = that of the working directory
  bool show_info = false;  // print info findings in the terminal report
  bool quiet = false;      // no terminal report (machine reports and exit status only)
  bool show_unconfirmed = false;  // print predictions a replay refuted (-unconfirmed)
  bool confirm_summary = false;   // not a flag: confirmation ran; say what it did (stderr)
};

// Registers --json, --sarif, --root, --info, --quiet and --unconfirmed on flags.
void AddReportFlags(util::FlagSet* flags, ReportOptions* opt);

struct ConfirmStep;

struct AnalyzeOptions {
  bool predict = true;  // run the happens-before engine and the predicted detectors
  std::string test;     // attribute findings without a test to this test name
  bool verbose = false; // also print the happens-before engine's warnings
  ConfirmStep* confirm = nullptr;  // replay to confirm / reproduce (confirm_step.h)
  // When set, the trace's tests and how its binary ended are appended to
  // it, under the name package (go test's verdict: report/verdict.h).
  report::Verdict* verdict = nullptr;
  std::string package;
};

// Reads and analyses the trace in dir and appends its findings (absolute
// paths, columns resolved) to *out. Receives the source checks for closed
// (`v, ok :=`, `for range`) are dropped from recv-on-closed here, before any
// replay. With opt.confirm, the trace's findings are then confirmed by
// replay, with the engine already built. Warnings of the reader and the
// engine go to stderr, prefixed with cmd. Returns false with *err when the
// trace cannot be read.
bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err);

// Finishes and prints the findings of one command: makes paths relative,
// de-duplicates, writes the requested reports and the terminal report (led
// by the tests' verdict when there is one). Returns the exit status: 0 no
// bug and no failed test, 1 bugs found or a test failed, 2 a report could
// not be written.
int Report(const std::string& cmd, std::vector<report::Finding> findings,
           const ReportOptions& opt, const report::Verdict* verdict = nullptr);

// Adds the verdict of one recorded test binary (or program) to *v: its
// tests from TestStart/TestEnd, and how it ended.
void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v);

}  // namespace gordian::cli
