// This file answers the questions both testing-misuse detectors ask of a
// TestCall record (a goroutine's call of a reporting method of a test's T):
// whether it ran after its test's function had returned, and whether it is
// ordered before the test completes through one of the test's subtests
// (package testing completes a test only after its subtests: t.Run waits
// for a sequential subtest, the parent's end for parallel ones, an order
// the trace does not show as an edge).
#pragma once

#include <cstdint>

#include "gordian/hb/happens_before.h"
#include "gordian/hb/op_index.h"

namespace gordian::detect {

// The methods of a TestCall's class (its val), for messages:
// "t.Error/Errorf/Fail".
const char* TestCallMethods(uint32_t val);

// The first word of Go's panic for a call of that class on a completed test:
// "Fail" ("Fail in goroutine after TestX has completed") for the failing
// classes, "Log" for the others.
const char* CompletedTestPanicWord(uint32_t val);

// Whether sub is a subtest (at any depth) of t: its name is t's, "/", more.
bool IsSubtestOf(const hb::TestInfo& sub, const hb::TestInfo& t);

// Whether call x (a TestCall on test t) started after t's TestEnd: it ran
// after the test function had returned (the recorder's settling at TestEnd
// kept the test open; without it Go panics or loses the call's output).
bool RanAfterItsTestEnded(const hb::OpIndex& ops, hb::RecordId x, const hb::TestInfo& t);

// Whether call x is ordered before test t completes through a subtest of t:
// it is made by a subtest's own goroutine or by a goroutine of a subtest,
// or (with an engine) happens before a subtest's TestEnd.
bool OrderedThroughSubtest(const hb::OpIndex& ops, const hb::HappensBefore* hb, hb::RecordId x,
                           const hb::TestInfo& t);

}  // namespace gordian::detect
