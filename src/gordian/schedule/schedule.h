// This file defines a schedule: which goroutine (stable spawn-path id)
// performs which controlled operation, in which global order, with the
// channel partners and select choices to expect. One format serves replay
// of a recorded run, confirmation of a predicted bug (a rewritten trace),
// fuzzing and the confirmation of model-checker counterexamples. The text
// form is docs/schedule-format.md; the runtime side that enforces it is
// runtime/std/runtime/gordian_replay.go.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/trace/kinds.h"

namespace gordian::schedule {

inline constexpr int32_t kChoiceFree = -2;     // no select choice given
inline constexpr int32_t kChoiceDefault = -1;  // the default case

// Whether a schedule orders operations of kind k: the "controlled" column of
// trace/kinds.def, which trace/kinds_test.cc checks against
// gordianReplayControlled in runtime/std/runtime/gordian_replay.go.
constexpr bool IsControlled(trace::Kind k) { return trace::InfoOf(k).controlled; }

struct Op {
  uint32_t g = 0;                  // index into Schedule::goroutines
  trace::Kind kind = trace::Kind::None;
  int32_t choice = kChoiceFree;    // Select: the case index or kChoiceDefault
  uint32_t obj = 0;                // object id in the source trace (for humans and checks)
  uint32_t val = 0;                // channel value seq (the partner), or the record's val
  uint32_t index = 0;              // index among the goroutine's controlled operations
  uint8_t flags = 0;               // the source record's flags (kClosed, kFailed, ...)
  bool blocks = false;             // never completed in the source (the bug's blocked op)
  std::string site;                // "file:line" ("?" unknown)
};

// A point of the recording that is not a controlled operation but must
// not come early, placed in the global order: goroutine g reached it after
// beginning its first `index` controlled operations, when the operations at
// positions < pos had happened; the replay holds it back until then.
//   panics: a panic (a fatal one ends the program);
//   relocks: a Cond.Wait that was woken relocks its Locker (index counts
//   the Wait itself), which competes with the scheduled Locks;
//   test_ends: a test function ended (the recorder then looks for the
//   test's blocked goroutines, and the next test starts).
struct Gate {
  uint32_t g = 0;
  uint32_t index = 0;
  uint32_t pos = 0;
};

// A select preference (GFuzz): every select at site that the prefix does
// not force first tries case `choice` (an index as in the trace: sends,
// then receives) and polls it while it is not ready; the total time the
// preference waits over the whole run is at most wait_ms, then the select
// runs unforced. Applies during the free run, so a preference reaches
// selects that no recorded run executed.
struct Preference {
  int32_t choice = 0;
  uint32_t wait_ms = 0;
  std::string site;
};

// A delay point (PCT-style): the nth (1 = the first) controlled operation
// at site, counted over all goroutines in the order they reach it, is held
// before it runs until every other goroutine is blocked or asleep, or
// wait_ms has passed. Operations released by the prefix are not held.
struct Delay {
  uint32_t nth = 1;
  uint32_t wait_ms = 0;
  std::string site;
};

// An operation of a scheduling chain (fuzzing, GoPie): the index-th
// controlled operation of goroutine g (an index into Schedule::goroutines).
// A schedule made from a chain lists the chain's operations in its order
// ("chain" lines), so that the scheduling-chains strategy can mutate the
// chain again in a later run of the same or the next campaign (the prefix
// alone does not say which of its operations were the chain and which
// their happens-before past). The runtime checks and ignores them.
struct ChainOp {
  uint32_t g = 0;
  uint32_t index = 0;
};

// A testing call held until its test has ended: the nth (1 = the first)
// TestCall of goroutine g (an index into Schedule::goroutines; counted as
// the recorder writes them, user calls of t.Log, t.Errorf, t.Fatal, ...)
// waits, before its record is written, until the test whose T it calls has
// returned from its function (or the program ends, or kMaxAfterEndWaitMs
// has passed), then runs. Holding a goroutine is a schedule every run can
// take; the call then runs after its test's end (testing-after-end).
struct AfterEnd {
  uint32_t g = 0;
  uint32_t nth = 1;
};

// At most this many prefer, delay, chain and after_end lines each (the
// runtime's tables).
inline constexpr size_t kMaxDirectives = 64;
// A wait of a prefer or delay line is at most this long.
inline constexpr uint32_t kMaxDirectiveWaitMs = 60000;
// An after_end hold ends after this long if its test has not ended
// (runtime/std/runtime/gordian_replay.go, gordianAfterEndWaitNs).
inline constexpr uint32_t kMaxAfterEndWaitMs = 60000;

// How to run the program again (from the recording).
struct Invocation {
  std::string mode;                // "test" or "run"; "" unknown
  std::string cwd;                 // absolute
  std::vector<std::string> args;   // driver::RecordOptions::args
  int gomaxprocs = 0;              // 0: the default
  // Built with Go's race detector (the recording's meta says race=1):
  // the runner (pipeline/schedule_runner.h) adds -race itself, so a
  // schedule file names no build flag.
  bool race = false;
};

struct Schedule {
  Invocation cmd;
  std::string origin;              // free text: "trace DIR", "rewrite send-on-closed", ...
  std::string expect;              // the finding kind this schedule should produce ("" none)
  std::vector<std::string> goroutines;  // spawn paths; "1" first, parents before children
  std::vector<Op> ops;             // strict prefix, in global order; then a free run
  std::vector<Gate> panics;        // "p" lines: the recording's panics
  std::vector<Gate> relocks;       // "r" lines: the relocks of woken Cond.Waits
  std::vector<Gate> test_ends;     // "e" lines: the ends of tests
  std::vector<Preference> prefers; // "prefer" lines: select preferences of the free run
  std::vector<Delay> delays;       // "delay" lines: delay points
  std::vector<ChainOp> chain;      // "chain" lines: the chain the prefix orders (fuzzing)
  std::vector<AfterEnd> after_end; // "after_end" lines: testing calls held until their test ended
  // Positions from here on were recorded after the program began to die
  // (a fatal panic): best effort, not required to happen. -1: none.
  int64_t fatal_at = -1;
};

std::string FormatSchedule(const Schedule& s);
bool ParseSchedule(const std::string& text, Schedule* out, std::string* err);
bool WriteSchedule(const std::string& path, const Schedule& s, std::string* err);
bool ReadSchedule(const std::string& path, Schedule* out, std::string* err);

// Short names of kinds as the schedule text writes them ("send", "recv", ...;
// "other" for kinds a schedule does not order): trace/kinds.def.
constexpr const char* KindName(trace::Kind k) { return trace::InfoOf(k).sched; }

}  // namespace gordian::schedule
