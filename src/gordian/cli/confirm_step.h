// This file declares the confirmation step of `gordian test` and `gordian
// run`: after a trace is analysed, its predicted findings are rewritten into
// schedules and replayed (schedule/confirm.h), which turns them into
// "confirmed" or "unconfirmed" findings with a `reproduce` command.
#pragma once

#include <string>
#include <vector>

#include "gordian/cli/progress.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/confirm.h"

namespace gordian::cli {

struct ConfirmStep {
  bool enabled = true;           // --no-confirm turns it off
  double budget_seconds = 60;    // --confirm-budget: per test (or program), predicted bugs
  double per_finding_seconds = 20;
  std::string schedule_dir;      // kept (reproduce names files in it)
  std::string work_dir;          // replayed traces (scratch)
  schedule::Invocation fallback; // how to run a main program again
  bool pass_through = false;
  bool verbose = false;
  Progress* progress = nullptr;  // told about each replay
  bool ran = false;              // some trace had findings to replay
};

// Confirms the predicted findings of trace t (recorded in trace_dir; hb is
// its engine, the findings' record indices refer to t), and gives its
// occurred bugs a `reproduce` command when a replay of the recorded
// schedule hits them again. Called by AnalyzeTrace (analysis.h).
void ConfirmFound(const std::string& cmd, const trace::Trace& t, const hb::HappensBefore& hb,
                  const std::string& trace_dir, std::vector<report::Finding>* findings,
                  ConfirmStep* step);

// "confirmed K of N predicted bugs by replay" and "K of N occurred bugs
// replay", counted over the findings the report shows (de-duplicated, what
// the report drops left out), so that the line agrees with the summary.
void PrintConfirmSummary(const std::string& cmd, const std::vector<report::Finding>& findings);

}  // namespace gordian::cli
