// This file declares the confirmation step of `gordian test` and `gordian
// run`: after a trace is analysed, its predicted findings are rewritten into
// schedules and replayed (schedule/confirm.h), which turns them into
// "confirmed" or "unconfirmed" findings with a `reproduce` command.
#pragma once

#include <string>
#include <vector>

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
  // Totals over all traces.
  size_t predicted = 0, confirmed = 0, unconfirmed = 0, not_replayed = 0;
  size_t occurred = 0, reproduced = 0;  // occurred bugs, and those a replay hit again
};

// Confirms the predicted findings of trace t (recorded in trace_dir; hb is
// its engine, the findings' record indices refer to t), and gives its
// occurred bugs a `reproduce` command when a replay of the recorded
// schedule hits them again. Called by AnalyzeTrace (analysis.h).
void ConfirmFound(const std::string& cmd, const trace::Trace& t, const hb::HappensBefore& hb,
                  const std::string& trace_dir, std::vector<report::Finding>* findings,
                  ConfirmStep* step);

// "confirmed K of N predicted bugs" (stderr), when anything was predicted.
void PrintConfirmSummary(const std::string& cmd, const ConfirmStep& step);

}  // namespace gordian::cli
