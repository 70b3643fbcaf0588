// This file implements the occurred global-deadlock detector. The recorder's
// watchdog writes a GlobalDeadlock record when every goroutine of the
// program is blocked (it does not rely on Go's own detector, which a pending
// timer or a test timeout disables). The finding names every blocked
// goroutine's operation. Goroutines whose blocking a more precise finding
// explains (a double lock, a lock-order or mixed deadlock) stay in the list;
// if they are the only blocked user goroutines, those findings alone are
// reported.
#include <algorithm>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using trace::Kind;
using trace::Record;

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

}  // namespace

void DetectGlobalDeadlock(const OccurredIndex& ix, OccurredState* st,
                          std::vector<Finding>* out) {
  uint32_t marker = UINT32_MAX;
  for (uint32_t i = 0; i < ix.size(); i++) {
    if (ix.rec(i).kind == Kind::GlobalDeadlock) {
      marker = i;
      break;
    }
  }
  if (marker == UINT32_MAX) return;

  std::vector<uint32_t> user, other;  // blocked operations
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    if (!ix.BlockedForever(g.gid)) continue;
    uint32_t op = ix.LastOp(g.gid);
    (ix.IsUser(op) ? user : other).push_back(op);
  }
  std::vector<uint32_t>& blocked = user.empty() ? other : user;
  bool all_explained = std::all_of(blocked.begin(), blocked.end(), [&](uint32_t op) {
    return st->explained_blocked.count(ix.GidOf(op)) > 0;
  });
  for (uint32_t op : user) st->explained_blocked.insert(ix.GidOf(op));
  for (uint32_t op : other) st->explained_blocked.insert(ix.GidOf(op));
  st->crash_stamp = std::min(st->crash_stamp, ix.rec(marker).tpre);
  if (blocked.empty() || all_explained) return;

  Finding f;
  f.kind = FindingKind::GlobalDeadlock;
  f.status = report::Status::Occurred;
  f.severity = report::DefaultSeverity(f.kind);
  f.test = ix.TestOf(blocked[0]);
  std::string named;
  for (size_t k = 0; k < blocked.size(); k++) {
    uint32_t op = blocked[k];
    const Record& r = ix.rec(op);
    f.locations.push_back(ix.Loc(op, RoleOf(r)));
    f.interleaving.push_back(ix.StepOf(op, RoleOf(r), BlockedOn(r) + ": blocks forever"));
    if (k < kMaxNamedInMessage) {
      const trace::Site& s = ix.SiteOf(op);
      named += fmt::format("{}goroutine {} in {} at {}:{}", k == 0 ? "" : ", ",
                           ix.StableId(ix.GidOf(op)), BlockedOn(r), BaseName(s.file), s.line);
    }
  }
  if (blocked.size() > kMaxNamedInMessage) {
    named += fmt::format(" and {} more", blocked.size() - kMaxNamedInMessage);
  }
  f.message = fmt::format("all goroutines are blocked: {}", named);
  FinishFinding(ix, &f);
  out->push_back(std::move(f));
}

}  // namespace gordian::detect
