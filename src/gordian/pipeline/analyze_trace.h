// This file declares the analysis of one recorded trace, shared by `gordian
// analyze`, `gordian test` and `gordian run`: the reader, the
// happens-before engine, the occurred and predicted detectors and, when
// asked, the confirmation of the findings by replay (confirm.h).
#pragma once

#include <string>
#include <vector>

#include <memory>

#include "gordian/hb/happens_before.h"
#include "gordian/hb/op_index.h"
#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"
#include "gordian/trace/trace.h"

namespace gordian::pipeline {

struct ConfirmOptions;

struct AnalyzeOptions {
  bool predict = true;  // run the happens-before engine and the predicted detectors
  std::string test;     // attribute findings without a test to this test name
  bool verbose = false; // also print the happens-before engine's warnings
  const ConfirmOptions* confirm = nullptr;  // replay to confirm / reproduce (confirm.h)
  bool* replayed = nullptr;  // set when confirmation had findings of the trace to replay
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

// The index and the happens-before engine AnalyzeRead built for a trace,
// kept for who looks further at the run (the fuzzer turns its alternatives
// into schedules). Not movable: hb reads ops.
struct TraceAnalysis {
  hb::OpIndex ops;
  hb::HappensBefore hb;
  bool have_hb = false;  // hb was built (else only the occurred detectors ran)
};

// AnalyzeTrace on a trace already read (t, recorded in dir): fills *a
// (which must outlive nothing but its own use of t) and appends the
// findings to *out, as AnalyzeTrace does.
void AnalyzeRead(const std::string& cmd, const trace::Trace& t, const std::string& dir,
                 const AnalyzeOptions& opt, TraceAnalysis* a,
                 std::vector<report::Finding>* out);

// Adds the verdict of one recorded test binary (or program) to *v: its
// tests from TestStart/TestEnd, and how it ended.
void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v);

}  // namespace gordian::pipeline
