// This file declares the confirmation of `gordian verify` findings on the
// real program (`gordian verify -confirm`, after Vtrace; docs/verify.md
// "Confirmation"): for a finding of a model, a test that reaches the
// model's entry (the entry itself when it is a test, else a test that calls
// it through the IR's call graph) is recorded once; the checker's
// counterexample is mapped onto that recording (counterexample_schedule.h)
// and replayed under the schedule; a replay that shows the finding's kind at
// its location confirms it (status confirmed, a `reproduce` command). A
// counterexample that cannot be mapped, or whose replay does not show the
// bug, is disallowed (CheckOptions::reject) and the checker is asked for the
// next one, up to a budget; then the finding is unconfirmed, with the
// reason. Without a test that reaches the entry it stays predicted.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gordian/ir/ir.h"
#include "gordian/report/finding.h"
#include "gordian/verify/model.h"
#include "gordian/verify/verify_model.h"

namespace gordian::pipeline {

struct VerifyConfirmOptions {
  int tries = 3;             // replays per finding (-confirm-tries)
  int max_unmapped = 32;     // counterexamples that do not map, per finding (cheap: no replay)
  double record_seconds = 120;  // the recording of a test, its build included
  double replay_seconds = 60;   // one replay, its build included
  double check_seconds = 20;    // one search for the next counterexample
  // One finding's searches and replays together (its test's recording,
  // shared with other findings, is not counted): past it the finding is
  // decided on what was tried (refuted counterexamples: unconfirmed; none
  // tried: it stays predicted).
  double finding_seconds = 60;
  // The whole confirmation (-confirm-time); past it the findings not yet
  // looked at stay predicted, noted "not tried: -confirm-time ran out".
  double total_seconds = 300;
  std::string work_dir;      // recordings and replayed traces (scratch)
  std::string schedule_dir;  // the schedules (kept: `reproduce` names them)
  std::string gordian = "gordian";  // the command `reproduce` names
  std::string self_exe;      // the gordian binary for go test -exec ("": this process)
  verify::VerifyOptions vopt;  // the valuations and check options of verify
  std::function<void(const std::string&)> progress;
};

struct VerifyConfirmSummary {
  size_t looked_at = 0;    // distinct findings (by dedup key)
  size_t confirmed = 0;
  size_t confirmed_later = 0;  // ... after at least one counterexample was refuted
  size_t unconfirmed = 0;
  size_t no_test = 0;      // no test reaches the entry: stay predicted
  size_t failed = 0;       // the test does not build, the recording failed, interrupted
  size_t out_of_time = 0;  // not looked at: total_seconds was spent
  bool build_failed = false;  // a test did not build (the command exits 2, as on a build failure)
  double seconds = 0;      // wall time of all confirmations
  std::vector<std::string> notes;   // one line per finding: what happened and why
  std::vector<std::string> errors;  // the failures a user must see (not only with --verbose)
};

// The tests of prog (kind "test") that reach the function named entry
// through calls, go and defer statements (the entry itself when it is a
// test), nearest first; at most max.
std::vector<const ir::Function*> TestsReaching(const ir::Program& prog, const std::string& entry, size_t max = 3);

// Confirms findings in place. model_of[i] is the index in models of the
// model findings[i] came from. Findings with the same dedup key are one bug:
// the first model with a test that confirms it decides for all of them.
void ConfirmVerifyFindings(const ir::Program& prog, const std::vector<verify::Model>& models,
                           const std::vector<size_t>& model_of, std::vector<report::Finding>* findings,
                           const VerifyConfirmOptions& opt, VerifyConfirmSummary* sum);

}  // namespace gordian::pipeline
