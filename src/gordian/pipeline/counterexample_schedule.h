// This file declares the mapping of a `gordian verify` counterexample onto a
// recorded run of a test (as Vtrace confirms a counterexample): each step of
// the checker's interleaving (verify/checker.h) that is a controlled operation
// is matched to an operation of the recording, and the matched operations, in
// the counterexample's order, become the strict prefix of a schedule
// (schedule/schedule.h) that `gordian replay` enforces. docs/verify.md,
// "Confirmation", states the matching rules. No side effects.
#pragma once

#include <string>

#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"
#include "gordian/verify/checker.h"
#include "gordian/verify/model.h"

namespace gordian::pipeline {

// Maps v (a violation of model m) onto trace t, recorded in trace_dir from a
// test that reaches m's entry. root resolves m.files. The schedule has the
// recording's invocation, `expect` set to v's kind, and as its prefix the
// counterexample's controlled operations (with the operations of the same
// goroutines the model does not have, just before the next one it has).
// False with *why when a step has no match in the recording (the run took
// another path, a goroutine was not started there, ...).
bool ScheduleFromCounterexample(const verify::Model& m, const verify::Violation& v, const trace::Trace& t,
                                const std::string& trace_dir, const std::string& root,
                                schedule::Schedule* out, std::string* why);

// The runtime's case index (the trace's and the schedule's CHOICE) of the
// model's case c of select in, c in source order: sends first, in source
// order, then receives in reverse source order, as the compiler lays them
// out. kChoiceDefault for a c that is no case (the default).
int32_t RuntimeSelectCase(const verify::Instr& in, int32_t c);

}  // namespace gordian::pipeline
