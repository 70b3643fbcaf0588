// This file implements the occurred global-deadlock detector. The recorder's
// watchdog writes a GlobalDeadlock record when every goroutine of the
// program is blocked (it does not rely on Go's own detector, which a pending
// timer or a test timeout disables); a run that never exited with every
// goroutine blocked for good counts too (HungWithEveryoneBlocked). The
// finding names every blocked
// goroutine's operation. Goroutines whose blocking a more precise finding
// explains (a double lock, a lock-order or mixed deadlock) stay in the list;
// if they are the only blocked user goroutines, those findings alone are
// reported.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

constexpr size_t kMaxNamedInMessage = 3;

std::string BlockedOn(const Record& r) {
  switch (r.kind) {
    case Kind::ChanSend: return r.obj == 0 ? "send on a nil channel" : "send";
    case Kind::ChanRecv: return r.obj == 0 ? "receive from a nil channel" : "receive";
    case Kind::Select: return "select";
    case Kind::MutexLock: case Kind::RWLock: return "Lock";
    case Kind::RLock: return "RLock";
    case Kind::WgWait: return "WaitGroup.Wait";
    case Kind::CondWait: return "Cond.Wait";
    case Kind::OnceDo: return "Once.Do";
    default: return OpName(r);
  }
}

// The recorder's own pseudo-goroutine (GoStart obj 0, val 0xffffffff).
bool IsRecorder(const OccurredIndex& ix, const trace::Goroutine& g) {
  if (g.begin >= g.end) return false;
  const Record& r = ix.rec(g.begin);
  return r.kind == Kind::GoStart && r.obj == 0 && r.val == 0xffffffffu;
}

// A run that never exited (killed at the wall-clock limit, say) in which
// every goroutine had ended or was blocked forever in a recorded operation
// that only program goroutines can complete: a hang the watchdog did not
// call (for example while a harmless time.AfterFunc was pending). Any
// goroutine that is alive outside a recorded wait (sleeping, in I/O, never
// scheduled), or a wait on a channel gordian did not see made (possibly a
// timer's), means it may not be a deadlock. Returns the stamp to use, or
// trace::kNoStamp.
uint32_t HungWithEveryoneBlocked(const OccurredIndex& ix) {
  uint32_t last = 0;
  bool any_user_blocked = false;
  for (uint32_t i = 0; i < ix.size(); i++) {
    if (ix.rec(i).kind == Kind::ProgramExit) return trace::kNoStamp;
    last = std::max(last, std::max(ix.rec(i).tpre, ix.rec(i).tpost));
  }
  auto made = [&](const Record& op) {
    ObjectId chan = trace::ObjectIdOf(op);
    if (chan == ObjectId(0)) return true;  // a nil channel blocks forever
    for (uint32_t i : ix.OpsOf(ObjClass::Chan, chan)) {
      if (ix.rec(i).kind == Kind::ChanMake) return true;
    }
    return false;
  };
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    const Gid gid = trace::GidOf(g);
    if (IsRecorder(ix, g)) continue;
    uint32_t op = ix.LastOp(gid);
    if (op == hb::kNoRecord) return trace::kNoStamp;  // alive, never recorded anything
    const Record& r = ix.rec(op);
    if (r.kind == Kind::GoEnd) continue;
    if (!ix.BlockedForever(gid)) return trace::kNoStamp;
    if (r.kind == Kind::ChanSend || r.kind == Kind::ChanRecv) {
      if (!made(r)) return trace::kNoStamp;
    } else if (r.kind == Kind::Select) {
      for (uint32_t c : ix.CasesOf(op)) {
        if (!made(ix.rec(c))) return trace::kNoStamp;
      }
    }
    any_user_blocked |= ix.IsUser(op);
  }
  return any_user_blocked ? last + 1 : trace::kNoStamp;
}

}  // namespace

void DetectGlobalDeadlock(const OccurredIndex& ix, OccurredState* st,
                          std::vector<Finding>* out) {
  uint32_t marker = hb::kNoRecord;
  for (uint32_t i = 0; i < ix.size(); i++) {
    if (ix.rec(i).kind == Kind::GlobalDeadlock) {
      marker = i;
      break;
    }
  }
  uint32_t stamp = marker != hb::kNoRecord ? ix.rec(marker).tpre : HungWithEveryoneBlocked(ix);
  if (stamp == trace::kNoStamp) return;
  bool hung = marker == hb::kNoRecord;

  std::vector<uint32_t> user, other;  // blocked operations
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    const Gid gid = trace::GidOf(g);
    if (!ix.BlockedForever(gid)) continue;
    uint32_t op = ix.LastOp(gid);
    (ix.IsUser(op) ? user : other).push_back(op);
  }
  std::vector<uint32_t>& blocked = user.empty() ? other : user;
  bool all_explained = std::all_of(blocked.begin(), blocked.end(), [&](uint32_t op) {
    return st->explained_blocked.count(ix.GidOf(op)) > 0;
  });
  for (uint32_t op : user) st->explained_blocked.insert(ix.GidOf(op));
  for (uint32_t op : other) st->explained_blocked.insert(ix.GidOf(op));
  st->crash_stamp = std::min(st->crash_stamp, stamp);
  if (blocked.empty() || all_explained) return;

  Finding f = OccurredFinding(ix, FindingKind::GlobalDeadlock, blocked[0]);
  std::string named;
  for (size_t k = 0; k < blocked.size(); k++) {
    uint32_t op = blocked[k];
    const Record& r = ix.rec(op);
    f.locations.push_back(ix.Loc(op, RoleOf(r)));
    f.interleaving.push_back(ix.StepOf(op, RoleOf(r), BlockedOn(r) + ": blocks forever"));
    if (k < kMaxNamedInMessage) {
      named += fmt::format("{}goroutine {} in {} at {}", k == 0 ? "" : ", ",
                           ix.StableId(ix.GidOf(op)), BlockedOn(r), ShortSite(ix, op));
    }
  }
  if (blocked.size() > kMaxNamedInMessage) {
    named += fmt::format(" and {} more", blocked.size() - kMaxNamedInMessage);
  }
  f.message = hung ? fmt::format("the program hung and was stopped with every goroutine "
                                 "blocked: {}",
                                 named)
                   : fmt::format("all goroutines are blocked: {}", named);
  FinishFinding(ix, &f);
  out->push_back(std::move(f));
}

}  // namespace gordian::detect
