// This file declares the analysis of one recorded trace, shared by `gordian
// analyze`, `gordian test` and `gordian run`: the reader, the
// happens-before engine, the occurred and predicted detectors and, when
// asked, the confirmation of the findings by replay (confirm.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/hb/op_index.h"
#include "gordian/report/finding.h"
#include "gordian/report/verdict.h"
#include "gordian/trace/trace.h"

namespace gordian::pipeline {

struct ConfirmOptions;
class AnalysisProgress;

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
  // Memory for the analysis of the trace (memory_budget.h); 0 = the
  // default (util/memory.h). Past it the analysis drops predictions and
  // appends one sentence per loss to *degraded (which every report shows).
  uint64_t memory_budget = 0;
  // Set when the trace is incomplete (trace::Trace::incomplete): the
  // recording stopped before the program did. A report that found no bug
  // in it cannot say "no bug" (the command exits 2).
  bool* incomplete = nullptr;
  std::vector<std::string>* degraded = nullptr;
  // Set (analysis_pool.h): when the budget made the analysis drop anything,
  // stop before confirming, append no finding and no degradation (the
  // verdict is appended already), set *gave_up; the caller throws its
  // results away and runs it again with a larger budget.
  bool* gave_up = nullptr;
  // Where the phases and record counts go (analysis_progress.h), or null.
  AnalysisProgress* progress = nullptr;
  // When set, the bytes the analysis accounted for (trace, index, engines).
  uint64_t* memory_used = nullptr;
  // Store only the clocks the detectors read (detect/clock_needs.h); the
  // engine is built again with every clock when a prediction is to be
  // confirmed. Off for a caller that asks the engine more than the
  // detectors do (the fuzzer's strategies read TraceAnalysis::hb).
  bool clocks_on_demand = true;
  // AnalyzeTrace: a trace of at least this many records whose tests do
  // not share objects is analysed one group of tests at a time
  // (trace_windows.h); 0 = kWindowMinRecords.
  uint64_t window_min_records = 0;
  // Add Go's race reports (-race) from the log beside the trace; a window
  // of a trace after the first leaves them to the first.
  bool race_reports = true;
};

// Below this many records (about 100 MB of them) a trace is analysed
// whole: its analysis fits where go test -race's run does.
inline constexpr uint64_t kWindowMinRecords = 4'000'000;

// Reads and analyses the trace in dir and appends its findings (absolute
// paths, columns resolved) to *out. Receives the source checks for closed
// (`v, ok :=`, `for range`) are dropped from recv-on-closed here, before any
// replay. With opt.confirm, the trace's findings are then confirmed by
// replay, with the engine already built. Within opt.memory_budget the
// result is that of an unbounded analysis; past it, predictions are dropped
// (memory_budget.h says which first) and *opt.degraded says so, while the
// findings that occurred are all kept. Warnings of the reader and the
// engine go to stderr, prefixed with cmd. Returns false with *err when the
// trace cannot be read.
bool AnalyzeTrace(const std::string& cmd, const std::string& dir, const AnalyzeOptions& opt,
                  std::vector<report::Finding>* out, std::string* err);

// The index and the happens-before engine AnalyzeRead built for a trace,
// kept for who looks further at the run (the fuzzer turns its alternatives
// into schedules). Not movable: hb reads ops.
struct TraceAnalysis {
  hb::OpIndex ops;
  // Built with the budget's options (its progress callback goes quiet when
  // AnalyzeRead returns).
  std::unique_ptr<hb::HappensBefore> hb;
  bool have_hb = false;  // hb was built (else only the occurred detectors ran)
};

// AnalyzeTrace on a trace already read (t, recorded in dir; the fuzzer's
// runs, the benchmarks' synthetic traces): fills *a and appends the
// findings to *out, as AnalyzeTrace does.
void AnalyzeRead(const std::string& cmd, const trace::Trace& t, const std::string& dir,
                 const AnalyzeOptions& opt, TraceAnalysis* a,
                 std::vector<report::Finding>* out);

// Adds the verdict of one recorded test binary (or program) to *v: its
// tests from TestStart/TestEnd, and how it ended.
void AddTraceVerdict(const trace::Trace& t, const std::string& package, report::Verdict* v);

}  // namespace gordian::pipeline
