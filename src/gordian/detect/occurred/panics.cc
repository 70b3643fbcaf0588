// This file implements the occurred panic detector. A Panic record carries
// the panic's message. Runtime panics that belong to a more precise kind
// ("send on closed channel", "sync: negative WaitGroup counter", ...) become
// findings of that kind, unless the recorder already flagged the operation
// itself (closed_channels.cc, sync_misuse.cc report those); recovered, such
// a runtime panic is a warning. Every other panic is a `panic` finding with
// its message, unless it was recovered (recovered.cc): a user panic caught
// by a recover is ordinary control flow; or it is go test's -timeout, which
// the test results report.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"
#include "gordian/detect/test_calls.h"

namespace gordian::detect {
namespace {

// The records the recorder flags for each kind of runtime failure
// (closed_channels.cc, sync_misuse.cc report those).
bool FlaggedSend(const Record& r) {
  bool send = r.kind == Kind::ChanSend ||
              (r.kind == Kind::SelectCase && (r.flags & trace::kDirSend));
  return send && (r.flags & trace::kClosed);
}
bool FlaggedCloseOfClosed(const Record& r) {
  return r.kind == Kind::ChanClose && (r.flags & trace::kClosed);
}
bool FlaggedCloseOfNil(const Record& r) { return r.kind == Kind::ChanClose && r.obj == 0; }
bool FlaggedWgAdd(const Record& r) { return r.kind == Kind::WgAdd && (r.flags & trace::kFailed); }
// A call after its test completed panics in package testing; the TestCall
// record written when the call began is where it is placed (below), not a
// flag of its own.
bool NeverFlagged(const Record&) { return false; }
bool FlaggedUnlock(const Record& r) {
  return (r.kind == Kind::MutexUnlock || r.kind == Kind::RWUnlock || r.kind == Kind::RUnlock) &&
         (r.flags & trace::kFailed);
}

// The kinds Go's runtime panics with (the runtime_panic column of
// report/finding_kinds.def), with where the panic sits and the record the
// recorder flagged for it. Whether a recover can catch one is the kind's
// shows column (Panics or Fatal).
struct RuntimePanicKind {
  FindingKind kind;
  Role role;
  bool (*flagged)(const Record& r);
};

constexpr RuntimePanicKind kRuntimePanicKinds[] = {
    {FindingKind::SendOnClosed, Role::Send, FlaggedSend},
    {FindingKind::CloseOfClosed, Role::Close, FlaggedCloseOfClosed},
    {FindingKind::CloseOfNil, Role::Close, FlaggedCloseOfNil},
    {FindingKind::NegativeWaitGroup, Role::Done, FlaggedWgAdd},
    {FindingKind::UnlockOfUnlocked, Role::Unlock, FlaggedUnlock},
    {FindingKind::TestingAfterEnd, Role::Call, NeverFlagged},
};

// The runtime panic kind whose message the panic's message carries, or null.
const RuntimePanicKind* RuntimePanicOf(const std::string& msg) {
  for (const RuntimePanicKind& p : kRuntimePanicKinds) {
    for (std::string_view text : report::RuntimePanicTexts(p.kind)) {
      if (msg.find(text) != std::string::npos) return &p;
    }
  }
  return nullptr;
}

// True when the goroutine has, before the panic's record, a record the
// recorder flagged for this runtime panic.
bool FlaggedBefore(const OccurredIndex& ix, Gid gid, uint32_t panic_rec,
                   const RuntimePanicKind& p) {
  const trace::Goroutine* g = ix.trace().FindGoroutine(trace::Value(gid));
  if (g == nullptr) return false;
  for (uint32_t i = g->begin; i < panic_rec && i < g->end; i++) {
    if (p.flagged(ix.rec(i))) return true;
  }
  return false;
}

// The goroutine's last TestCall record before the panic's record (the
// call of a testing method that panicked), or hb::kNoRecord.
uint32_t TestCallBefore(const OccurredIndex& ix, Gid gid, uint32_t panic_rec) {
  const trace::Goroutine* g = ix.trace().FindGoroutine(trace::Value(gid));
  if (g == nullptr) return hb::kNoRecord;
  for (uint32_t i = std::min(panic_rec, g->end); i-- > g->begin;) {
    if (ix.rec(i).kind == Kind::TestCall) return i;
  }
  return hb::kNoRecord;
}

// The panic the testing package raises when a test binary runs past
// go test's -timeout: not a bug of the program under test (and, recorded,
// a slow suite meets it sooner), so no `panic` finding.
bool IsTestTimeout(const OccurredIndex& ix, uint32_t rec, const std::string& msg) {
  if (msg.rfind("test timed out after ", 0) != 0) return false;
  const std::string& file = ix.SiteOf(rec).file;
  static constexpr std::string_view kTesting = "testing/testing.go";
  return file.size() >= kTesting.size() &&
         file.compare(file.size() - kTesting.size(), kTesting.size(), kTesting) == 0;
}

}  // namespace

void DetectPanics(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  std::set<std::pair<Gid, std::string>> seen;  // (gid, message): a re-panic is one panic
  for (uint32_t i = 0; i < ix.size(); i++) {
    const Record& r = ix.rec(i);
    if (r.kind != Kind::Panic) continue;
    const Gid gid = ix.GidOf(i);
    std::string msg(ix.String(r.val));
    if (!seen.insert({gid, msg}).second) continue;
    if (IsTestTimeout(ix, i, msg)) {
      // go test's -timeout: the tests still running are reported as not
      // finished, as go test does; the goroutines blocked then are judged
      // as at any crash (a deadlock that made the test hang is still one).
      st->crash_stamp = std::min(st->crash_stamp, r.tpre);
      continue;
    }
    const RuntimePanicKind* rp = RuntimePanicOf(msg);
    std::string g = ix.StableId(gid);
    Finding f;
    bool recoverable = false;  // a runtime panic a recover can catch
    f.status = report::Status::Occurred;
    f.test = ix.TestOf(i);
    if (rp != nullptr) {
      if (FlaggedBefore(ix, gid, i, *rp)) continue;  // reported from the operation
      f.kind = rp->kind;
      // A fatal error (unlock of an unlocked lock) is never recovered.
      recoverable = report::Recoverable(rp->kind);
      f.message = fmt::format("goroutine {} panicked: {}", g, msg);
      // A testing method's panic sits inside package testing: placed at the
      // call, unless the call is reported itself (testing_misuse.cc: it ran
      // after its test's end).
      uint32_t at = i;
      if (rp->kind == FindingKind::TestingAfterEnd) {
        if (uint32_t call = TestCallBefore(ix, gid, i); call != hb::kNoRecord) {
          const TestInfo* t = ix.TestByIndex(ix.rec(call).obj);
          if (t != nullptr && t->gid != gid && RanAfterItsTestEnded(ix.ops(), call, *t)) continue;
          at = call;
        }
      }
      f.locations.push_back(ix.Loc(at, rp->role));
      f.interleaving.push_back(ix.StepOf(at, rp->role, fmt::format("panic: {}", msg)));
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
