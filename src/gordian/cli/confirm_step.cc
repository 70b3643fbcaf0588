// This file implements the confirmation step (confirm_step.h).
#include "gordian/cli/confirm_step.h"

#include <cstdio>

#include <fmt/format.h>

#include "gordian/driver/work_dir.h"
#include "gordian/hb/happens_before.h"
#include "gordian/report/replay_hits.h"
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
  if (step->progress != nullptr) {
    Progress* p = step->progress;
    o.progress = [p](const std::string& what) { p->Say(what); };
  }
  step->ran = true;
  schedule::ConfirmSummary sum;
  schedule::ConfirmFindings(t, trace_dir, hb, findings, o, &sum);
  schedule::ReproduceOccurred(t, trace_dir, findings, o, &sum);
  if (step->verbose) {
    for (const std::string& n : sum.notes) fmt::print(stderr, "{}: confirm: {}\n", cmd, n);
  }
}

void PrintConfirmSummary(const std::string& cmd, const std::vector<report::Finding>& findings) {
  report::ConfirmationCounts c = report::CountConfirmation(findings);
  if (c.predicted > 0) {
    fmt::print(stderr,
               "{}: confirmed {} of {} predicted bug{} by replay ({} refuted, {} not replayed)\n",
               cmd, c.confirmed, c.predicted, c.predicted == 1 ? "" : "s", c.refuted,
               c.predicted - c.confirmed - c.refuted);
  }
  if (c.occurred > 0) {
    fmt::print(stderr, "{}: {} of {} bug{} that occurred replay from the recorded schedule\n",
               cmd, c.reproduced, c.occurred, c.occurred == 1 ? "" : "s");
  }
}

}  // namespace gordian::cli
