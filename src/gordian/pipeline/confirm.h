// This file declares the confirmation step of the pipeline.
// ConfirmFindings: for each predicted finding of one recorded trace,
// rewrite it into a schedule (rewrite/rewrite.h), run the program under
// the schedule with a time budget (schedule_runner.h), and decide from the
// replayed
// trace whether the bug happened. A finding becomes "confirmed" only when
// the replay shows the bug itself (the operation that panics with that
// kind's error at that site, the deadlocked goroutines blocked at the
// cycle's operations at the end of the run); otherwise "unconfirmed" when a
// replay was tried. Findings that cannot be rewritten stay "predicted".
// ConfirmTrace is the step `gordian test` and `gordian run` take after the
// analysis of each trace (analyze_trace.h): ConfirmFindings, then
// ReproduceOccurred.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gordian/driver/record.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::pipeline {

class ScheduleRunner;

struct ConfirmOptions {
  bool enabled = true;              // --no-confirm turns ConfirmTrace off
  double per_finding_seconds = 20;  // wall-clock limit of one replay
  double per_test_seconds = 60;     // --confirm-budget: all the predicted findings of one test
                                    // (or program)
  std::string schedule_dir;         // where schedules go (kept: `reproduce` names them)
  std::string work_dir;             // where replayed traces go (scratch)
  std::string gordian = "gordian";  // the command named in `reproduce`
  // For traces of main programs, whose trace does not say how to run them:
  // used when the schedule's invocation has no arguments.
  schedule::Invocation fallback;
  bool pass_through = false;        // the replayed program's output to ours
  int stall_ms = 1000;
  bool verbose = false;             // ConfirmTrace prints what happened to each finding
  // Told before each replay what it is for ("send-on-closed at x.go:12"):
  // the command's progress line.
  std::function<void(const std::string&)> progress;
  // Runs the schedules; nullptr = the go command (GoScheduleRunner), or
  // the recording's binary below when it has a path.
  ScheduleRunner* runner = nullptr;
  // The binary the recording ran, when it was kept (RecordOptions::
  // keep_binary): the test binary of a test trace, or the program of a run
  // trace. The replays of its schedules run it directly (binary_runner.h),
  // and those it does not fit go through the go command. Whether it was
  // built with -race is the trace's to say (recorded_binary.race is not read).
  driver::TestBinary recorded_binary;
  driver::ProgramBinary recorded_program;
};

struct ConfirmSummary {
  size_t predicted = 0;    // predicted findings looked at (after de-duplication)
  size_t confirmed = 0;
  size_t unconfirmed = 0;  // replayed, the bug did not show
  size_t not_rewritten = 0;
  size_t occurred = 0;     // occurred bugs and warnings of the trace
  size_t reproduced = 0;   // ... that the replay of the recorded schedule hit again
  std::vector<std::string> notes;  // one line per finding: what happened
};

// Whether ConfirmFindings tries to replay f: a predicted bug or warning
// (information findings are never replayed).
inline bool ReplaysPrediction(const report::Finding& f) {
  return f.status == report::Status::Predicted && f.severity != report::Severity::Info;
}

// What confirming the findings of t needs of the engine it replays them
// with, given the engine hb they were predicted with: the linearization of
// a plan reads the clocks of its bug operations' past, which all started
// no later than the last bug operation.
struct ConfirmClocks {
  // False when no finding is replayed, or each one replayed has an
  // index-only plan (detect::RewriteSpec::index_only) with no operation to
  // linearize: no engine to build.
  bool needed = false;
  // The clocks of the records that started (tpre) after this stamp are
  // never read: the latest start of a bug operation of the index-only
  // plans, when every replayed finding has one; UINT32_MAX (every clock)
  // as soon as one plan is only known with the engine.
  uint32_t up_to_stamp = 0;
};
ConfirmClocks ClocksForConfirmation(const trace::Trace& t, const hb::HappensBefore& hb,
                                    const std::vector<report::Finding>& findings);

// t and hb belong to the trace in trace_dir; findings are its findings
// (Finding::records index t). Predicted findings are updated in place.
void ConfirmFindings(const trace::Trace& t, const std::string& trace_dir,
                     const hb::HappensBefore& hb, std::vector<report::Finding>* findings,
                     const ConfirmOptions& opt, ConfirmSummary* summary);

// For the occurred findings of the trace in trace_dir (bugs and warnings):
// replays the recorded schedule once and sets `reproduce` on each finding
// the replayed run hits again (same kind at the same file and line; a
// data race at the same pair of access sites). A
// finding the replay does not hit keeps no `reproduce`: the command would
// not show it. One replay per trace, within opt's limits.
void ReproduceOccurred(const trace::Trace& t, const std::string& trace_dir,
                       std::vector<report::Finding>* findings, const ConfirmOptions& opt,
                       ConfirmSummary* summary);

// Confirms the predicted findings of trace t (recorded in trace_dir; hb is
// its engine, the findings' record indices refer to t), and gives its
// occurred bugs a `reproduce` command when a replay of the recorded
// schedule hits them again; with opt.verbose, prints a line per finding to
// stderr, prefixed with cmd. Returns whether the trace had findings to
// replay (false too when !opt.enabled). Called by AnalyzeTrace.
bool ConfirmTrace(const std::string& cmd, const trace::Trace& t, const hb::HappensBefore& hb,
                  const std::string& trace_dir, std::vector<report::Finding>* findings,
                  const ConfirmOptions& opt);

}  // namespace gordian::pipeline
