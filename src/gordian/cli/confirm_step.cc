// This file implements the confirmation step (confirm_step.h).
#include "gordian/cli/confirm_step.h"

#include <cstdio>

#include <fmt/format.h>

#include "gordian/driver/work_dir.h"
#include "gordian/hb/happens_before.h"
#include "gordian/trace/trace.h"

namespace gordian::cli {

void ConfirmFound(const std::string& cmd, const trace::Trace& t, const hb::HappensBefore& hb,
                  const std::string& trace_dir, std::vector<report::Finding>* findings,
                  ConfirmStep* step) {
  if (!step->enabled) return;
  bool any = false;
  for (const report::Finding& f : *findings) {
    any = any || (f.status == report::Status::Predicted && f.severity != report::Severity::Info &&
                  !f.records.empty()) ||
          (f.status == report::Status::Occurred && f.severity != report::Severity::Info);
  }
  if (!any) return;
  schedule::ConfirmOptions o;
  o.per_finding_seconds = step->per_finding_seconds;
  o.per_test_seconds = step->budget_seconds;
  o.schedule_dir = step->schedule_dir;
  o.work_dir = step->work_dir;
  std::string self = driver::SelfExe();
  o.gordian = self.empty() ? "gordian" : self;
  o.fallback = step->fallback;
  o.pass_through = step->pass_through;
  schedule::ConfirmSummary sum;
  schedule::ConfirmFindings(t, trace_dir, hb, findings, o, &sum);
  schedule::ReproduceOccurred(t, trace_dir, findings, o, &sum);
  step->predicted += sum.predicted;
  step->confirmed += sum.confirmed;
  step->unconfirmed += sum.unconfirmed;
  step->not_replayed += sum.not_rewritten;
  step->occurred += sum.occurred;
  step->reproduced += sum.reproduced;
  if (step->verbose) {
    for (const std::string& n : sum.notes) fmt::print(stderr, "{}: confirm: {}\n", cmd, n);
  }
}

void PrintConfirmSummary(const std::string& cmd, const ConfirmStep& step) {
  if (!step.enabled) return;
  if (step.predicted > 0) {
    fmt::print(stderr,
               "{}: confirmed {} of {} predicted bugs by replay ({} refuted, {} not replayed)\n",
               cmd, step.confirmed, step.predicted, step.unconfirmed, step.not_replayed);
  }
  if (step.occurred > 0) {
    fmt::print(stderr, "{}: {} of {} bugs that occurred replay from the recorded schedule\n", cmd,
               step.reproduced, step.occurred);
  }
}

}  // namespace gordian::cli
