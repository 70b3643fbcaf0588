// This file owns the questions the reordering strategies (pair flip,
// scheduling chains, conflicting pairs) ask of a run's operations: which
// ones they may move (Reorderable), and, of a pair they might put in the
// other order, could the later one have taken effect first (CanGoFirst)?
#pragma once

#include <cstdint>

#include "gordian/hb/happens_before.h"
#include "gordian/schedule/schedule.h"
#include "gordian/trace/ids.h"
#include "gordian/trace/trace.h"

namespace gordian::fuzz {

// Whether record r, on an object of class cls, is one a reordering may
// move: controlled and completed; on a channel a plain send, receive or
// close (a select's cases are the prediction-guided strategy's); on a
// lock an acquisition (the unlock follows its critical section).
inline bool Reorderable(const trace::Record& r, trace::ObjClass cls) {
  if (!schedule::IsControlled(r.kind) || r.tpost == 0) return false;
  using trace::Kind;
  switch (cls) {
    case trace::ObjClass::Chan:
      return r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv || r.kind == Kind::ChanClose;
    case trace::ObjClass::Mutex:
    case trace::ObjClass::RWMutex:
      return r.kind == Kind::MutexLock || r.kind == Kind::RWLock || r.kind == Kind::RLock;
    default:
      return true;
  }
}

// Whether x can take effect before y, which the run had first: other
// goroutines, unordered by happens-before. A kind a schedule orders at its
// start (Once.Do, Cond.Wait, Add, Signal) is ordered by its start; one
// ordered at its completion (WaitGroup.Wait) by its completion, which must
// not have waited for y (a Wait that a Done released stays after it).
inline bool CanGoFirst(const hb::HappensBefore& e, trace::RecordId x, trace::RecordId y) {
  if (e.ops().GidOf(x) == e.ops().GidOf(y) || e.Before(x, y) || e.Before(y, x)) return false;
  if (!trace::InfoOf(e.trace().records[x].kind).at_post) return true;
  return e.Knows(x, true, trace::Value(e.ops().GidOf(y))) < e.PostEpoch(y);
}

}  // namespace gordian::fuzz
