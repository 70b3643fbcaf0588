// This file declares the schedules made from recorded traces, and the check
// that a replayed trace followed a schedule.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gordian/schedule/schedule.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::schedule {

// One controlled operation of a trace, located.
struct TraceOp {
  uint32_t gid = 0;
  trace::RecordId rec = 0;  // index into Trace::records
  uint64_t key = 0;         // orders it (see OrderKey)
  bool repaired = false;    // completed although its record says it did not
  uint32_t val = 0;         // val (repaired: the partner's value seq)
};

// The stamp at which an operation takes effect, which orders it in a
// schedule: the completion stamp for operations that can wait for another
// goroutine's (a channel operation's value moves under the channel lock at
// its tpost; a lock is acquired at tpost), the start stamp for the others
// and for operations that never completed. CondWait and Once.Do are
// ordered at their start (the waiter's ticket is taken at the start; f runs
// inside Do).
// Operations that never completed come last (in start order): nothing in
// the run depended on them, and a blocked receive must not be queued in a
// channel ahead of the receives that got values. Keys are stamp*2 (+1 for
// a repaired operation, right after its partner).
uint64_t OrderKey(const trace::Record& r);

// The controlled operations of t in schedule order. A parked partner whose
// process died before it ran again has tpost 0 although its value moved;
// such a receive (send) on a channel whose completed send (receive) has no
// recorded partner is repaired: ordered right after that partner, with its
// value seq. With kept_gid (indexed by gid), only the operations of the
// goroutines it marks are listed, ordered and repaired as among all of
// them (the others' operations are never held in memory).
std::vector<TraceOp> ControlledOps(const trace::Trace& t,
                                   const std::vector<uint8_t>* kept_gid = nullptr);

// The chosen SelectCase record of the Select record at index sel, or null
// (default, not completed, or a case beyond the recorded ones).
const trace::Record* ChosenCase(const trace::Trace& t, trace::RecordId sel);

// Site text of r: "file:line", "?" if unknown (trace/trace.h).
using trace::SiteText;

// The invocation that recorded trace_dir (test traces: the package
// directory from packages.txt and the test binary's flags from meta.txt).
// Run traces do not know their package: mode "run" and no args.
Invocation InvocationOf(const trace::Trace& t, const std::string& trace_dir);

// Fills s->goroutines with t's goroutines that have a stable id ("1"
// first, parents before children, as the runtime needs) and returns the map
// gid -> index in s->goroutines.
std::unordered_map<uint32_t, uint32_t> ScheduleGoroutines(const trace::Trace& t, Schedule* s);

// How many operations FromTrace(t) lists, without making them (a caller
// that refuses a schedule past some size asks this first).
size_t ControlledOpCount(const trace::Trace& t);

// The schedule of the whole recorded run t. With keep, only the operations
// (and gates) of the goroutines whose stable id it accepts are listed, at
// the positions they have among themselves: what filtering the whole
// schedule would give, without making the whole schedule (FromTraceForTest
// on a suite of 44M operations: gigabytes of operations to keep a few).
Schedule FromTrace(const trace::Trace& t, const std::string& trace_dir,
                   const std::function<bool(const std::string& stable_id)>& keep = nullptr);

// inv running only the top-level test name: its -test.run (and
// -test.count) replaced by -test.run=^name$.
Invocation OnlyTest(Invocation inv, const std::string& name);

// The schedule of one top-level test of a recorded go test run, to replay
// that test alone (`-test.run=^test$`): the operations of the test's
// goroutine and of every goroutine it (or a subtest) spawned, renamed to
// the spawn paths they get when the test runs alone (the tests before it
// are not spawned), with the gates, the fatal point and the positions of
// the whole schedule kept among them. A reproduce command then replays one
// test, not a suite, and its file holds that test's operations only. False
// with *why when the test is not in t or its spawn paths cannot be
// predicted (another goroutine of the test runner was spawned between the
// tests).
bool FromTraceForTest(const trace::Trace& t, const std::string& trace_dir, const std::string& test,
                      Schedule* out, std::string* why);

// Compares a replayed trace with the schedule it was run under, position
// by position up to fatal_at: the n-th controlled operation of each
// goroutine (spawn path) must have the scheduled kind and site
// ("followed"); for fidelity ("exact") it must also have completed or
// blocked as in the recording and, if completed, have the same partner:
// the same object (ids are matched by a bijection), for channel operations
// the same value number and closed flag, for a select the same case and
// the same partner of that case, for Cond operations the same ticket, for
// Once.Do the same outcome (ran f or not), and on every sync object
// (mutexes, WaitGroups, Onces, Conds) the operations took effect in the
// scheduled order.
struct FollowResult {
  size_t ops = 0;            // operations in the schedule
  size_t followed = 0;       // scheduled operations found in the replay, as scheduled
  bool complete = false;     // every scheduled operation happened as scheduled
  bool exact = false;        // ... and with the same partners and select choices (fidelity)
  std::string status;        // the runtime's replay_status ("complete", "diverged", ...)
  std::string divergence;    // the first difference, in words ("" none)
  // "file:line" of a select whose scheduled default the runtime refused
  // because a case was ready ("" none); the run is then not followed.
  std::string refused;
};
FollowResult CheckFollowed(const Schedule& s, const trace::Trace& replayed);

// "followed to the end: all 120 operations as scheduled, ...", "diverged
// after ...": what `gordian replay` says of a FollowResult.
std::string DescribeFollow(const FollowResult& f);

}  // namespace gordian::schedule
