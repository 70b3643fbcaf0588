// This file implements the occurred panic detector. A Panic record carries
// the panic's message. Runtime panics that belong to a more precise kind
// ("send on closed channel", "sync: negative WaitGroup counter", ...) become
// findings of that kind, unless the recorder already flagged the operation
// itself (occurred_closed.cc, occurred_sync.cc report those); recovered, such
// a runtime panic is a warning. Every other panic is a `panic` finding with
// its message, unless it was recovered (recovered.cc): a user panic caught
// by a recover is ordinary control flow.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"

namespace gordian::detect {
namespace {

using report::Finding;
using report::FindingKind;
using report::Role;
using trace::Kind;
using trace::Record;

struct RuntimePanic {
  const char* text;
  FindingKind kind;
  Role role;
};

constexpr RuntimePanic kRuntimePanics[] = {
    {"send on closed channel", FindingKind::SendOnClosed, Role::Send},
    {"close of closed channel", FindingKind::CloseOfClosed, Role::Close},
    {"close of nil channel", FindingKind::CloseOfNil, Role::Close},
    {"sync: negative WaitGroup counter", FindingKind::NegativeWaitGroup, Role::Done},
    {"sync: unlock of unlocked mutex", FindingKind::UnlockOfUnlocked, Role::Unlock},
    {"sync: Unlock of unlocked RWMutex", FindingKind::UnlockOfUnlocked, Role::Unlock},
    {"sync: RUnlock of unlocked RWMutex", FindingKind::UnlockOfUnlocked, Role::Unlock},
};

// True when the goroutine has, before stamp, a record the recorder flagged
// for this kind of failure.
bool FlaggedBefore(const OccurredIndex& ix, uint32_t gid, uint32_t panic_rec, FindingKind kind) {
  const trace::Goroutine* g = ix.trace().FindGoroutine(gid);
  if (g == nullptr) return false;
  for (uint32_t i = g->begin; i < panic_rec && i < g->end; i++) {
    const Record& r = ix.rec(i);
    switch (kind) {
      case FindingKind::SendOnClosed:
        if ((r.kind == Kind::ChanSend ||
             (r.kind == Kind::SelectCase && (r.flags & trace::kDirSend))) &&
            (r.flags & trace::kClosed)) {
          return true;
        }
        break;
      case FindingKind::CloseOfClosed:
        if (r.kind == Kind::ChanClose && (r.flags & trace::kClosed)) return true;
        break;
      case FindingKind::CloseOfNil:
        if (r.kind == Kind::ChanClose && r.obj == 0) return true;
        break;
      case FindingKind::NegativeWaitGroup:
        if (r.kind == Kind::WgAdd && (r.flags & trace::kFailed)) return true;
        break;
      case FindingKind::UnlockOfUnlocked:
        if ((r.kind == Kind::MutexUnlock || r.kind == Kind::RWUnlock ||
             r.kind == Kind::RUnlock) &&
            (r.flags & trace::kFailed)) {
          return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

void DetectPanics(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  std::set<std::pair<uint32_t, std::string>> seen;  // (gid, message): a re-panic is one panic
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (r.kind != Kind::Panic) continue;
    uint32_t gid = ix.GidOf(i);
    std::string msg(ix.String(r.val));
    if (!seen.insert({gid, msg}).second) continue;
    const RuntimePanic* rp = nullptr;
    for (const RuntimePanic& p : kRuntimePanics) {
      if (msg.find(p.text) != std::string::npos) rp = &p;
    }
    std::string g = ix.StableId(gid);
    Finding f;
    bool recoverable = false;  // a runtime panic a recover can catch
    f.status = report::Status::Occurred;
    f.test = ix.TestOf(i);
    if (rp != nullptr) {
      if (FlaggedBefore(ix, gid, i, rp->kind)) continue;  // reported from the operation
      f.kind = rp->kind;
      // Unlock of an unlocked lock is a fatal error: never recovered.
      recoverable = rp->kind != FindingKind::UnlockOfUnlocked;
      f.message = fmt::format("goroutine {} panicked: {}", g, msg);
      f.locations.push_back(ix.Loc(i, rp->role));
      f.interleaving.push_back(ix.StepOf(i, rp->role, fmt::format("panic: {}", msg)));
    } else {
      if (PanicRecovered(ix, i)) continue;
      f.kind = FindingKind::Panic;
      f.message = fmt::format("goroutine {} panicked: {}", g, msg.empty() ? "(no message)" : msg);
      f.locations.push_back(ix.Loc(i, Role::Panic));
      f.interleaving.push_back(ix.StepOf(i, Role::Panic, fmt::format("panic: {}", msg)));
    }
    f.severity = report::DefaultSeverity(f.kind);
    if (recoverable) {
      SettlePanic(ix, i, st, &f);
    } else {
      st->crash_stamp = std::min(st->crash_stamp, r.tpre);
    }
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
  }
}

}  // namespace gordian::detect
