// This file declares the rewriting of a predicted finding into a schedule
// (ADVOCATE's trace rewriting, reference-advocate.md §3.3): a strict prefix
// that is a linearization of the happens-before past of the bug's
// operations, with the bug's operations themselves in the buggy order,
// then a free run. Running the schedule (pipeline/schedule_runner.h) and
// checking the expectations against the replayed trace (pipeline/confirm.h)
// confirms or refutes the prediction.
//
// Per kind (the records come from Finding::records, see predict_context.cc):
//   send-on-closed  [send, close]  -> past(send) ∪ past(close), then close,
//                   then the send (a select is forced to the send case).
//                   Followed, the send finds the channel closed: it panics
//                   ("send on closed channel"); expected: the send's record
//                   has kClosed.
//   recv-on-closed  [rv, close, s] -> past, the close, then rv: the close
//                   comes before s delivers rv's value, so rv finds the
//                   channel closed and empty; expected: rv has kClosed.
//                   [rv, close, rc] -> past, rv's sender, rc (which saw the
//                   channel closed in the run) takes that value, then the
//                   close, then rv; expected: rc completed, rv has kClosed.
//   negative-waitgroup [done, add?] -> the Done d of the WaitGroup whose
//                   happens-before past (with the strong relation, else the
//                   one without lock edges) adds up to less than its delta:
//                   past(d), then d. Followed, the counter is the sum over
//                   the past plus d's delta < 0: panic; expected: d has
//                   kFailed.
//   unlock-of-unlocked [unlock, lock?] -> past(unlock), then the Unlock.
//                   Followed, the mutex is not locked when it runs (its
//                   locks in the past are matched by unlocks there, which
//                   counter matching found): fatal error; expected: the
//                   Unlock has kFailed.
//   lock-order-deadlock [req0, acq0, req1, acq1, ...] -> with the relation
//                   without unlock->lock edges: past, every goroutine takes
//                   its first lock (acq_i), then each requests the next one
//                   (req_i). Each request waits for a lock another member of
//                   the cycle holds: a deadlock; expected: acq_i completed,
//                   req_i never did.
//   mixed-deadlock  [x, acquire, lb, y] -> without lock edges: past, the
//                   holder takes the lock (acquire) and blocks on its
//                   channel operation x, the partner blocks on the lock (lb)
//                   before its channel operation y; expected: acquire
//                   completed, x and lb never did.
//   goroutine-leak / global-deadlock (predicted by select_leak.cc)
//                   [x, q, alt?] -> past, the select q forced to alt (or
//                   its default), then x: its only partner went elsewhere;
//                   expected: q completed, x never did.
//   double-lock (predicted by recursive_rlock.cc) [r2, r1, w] -> without
//                   lock edges: past, the first RLock r1, the writer's Lock w
//                   (waits for the reader), the second RLock r2 (waits for
//                   the pending writer); expected: r1 completed, w and r2
//                   never did.
// Every schedule also keeps each Wait's counter as the relation assumes:
// an Add the relation does not order before a listed Wait comes after it.
// Other kinds are not rewritten: RewriteFinding returns false.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gordian/hb/happens_before.h"
#include "gordian/report/finding.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/trace.h"

namespace gordian::schedule {

// What the replayed trace must show for the bug to count as happened.
enum class Expect : uint8_t {
  Completed,         // the operation completed
  Blocked,           // it never completed (a deadlock's or leak's operation)
  Closed,            // it hit a closed channel (kClosed): send panicked, recv got zero
  Failed,            // it failed (kFailed): negative counter, unlock of unlocked
  SelectCaseClosed,  // a Select whose case `choice` hit the closed channel
};

struct Expectation {
  std::string goroutine;  // stable id (spawn path)
  uint32_t index = 0;     // among the goroutine's controlled operations
  trace::Kind kind = trace::Kind::None;
  std::string site;       // "file:line"
  int32_t choice = 0;     // SelectCaseClosed: the case index
  Expect expect = Expect::Completed;
};

struct Rewrite {
  Schedule schedule;
  std::vector<Expectation> expect;  // all must hold
  std::string how;                  // one line: the buggy order, for people
};

// Whether RewriteFinding handles predicted findings of kind k (it can still
// fail on one finding, e.g. a past too large).
bool Rewritable(report::FindingKind k);

// Builds the schedule for predicted finding f of trace t (recorded in
// trace_dir). hb is the engine built from t; weak is the engine without
// unlock->lock edges (may be null; then lock-order and mixed deadlocks are
// not rewritten). False with *err when the finding cannot be rewritten.
bool RewriteFinding(const trace::Trace& t, const std::string& trace_dir,
                    const hb::HappensBefore& hb, const hb::HappensBefore* weak,
                    const report::Finding& f, Rewrite* out, std::string* err);

// Whether replayed trace t shows every expectation ("" = yes, else the first
// that does not hold, in words).
std::string CheckExpectations(const std::vector<Expectation>& ex, const trace::Trace& t);

}  // namespace gordian::schedule
