// This file implements the occurred double-lock detector: a goroutine is
// blocked forever acquiring a lock that it holds itself. Go's locks are not
// reentrant, so this never resolves:
//   Lock   while the goroutine holds the Mutex/RWMutex write lock,
//   Lock   while it holds a read lock of the RWMutex (an "upgrade"),
//   RLock  while it holds the write lock,
//   RLock  while it holds a read lock and a writer is waiting (a recursive
//          read lock: the waiting writer blocks new readers).
#include <fmt/format.h>

#include "gordian/detect/occurred/detectors.h"

namespace gordian::detect {
namespace {

// True when some goroutine other than gid is blocked forever on Lock of
// this RWMutex.
bool WriterWaiting(const OccurredIndex& ix, ObjectId obj, Gid gid) {
  for (uint32_t i : ix.OpsOf(ObjClass::RWMutex, obj)) {
    const Record& r = ix.rec(i);
    if (r.kind == Kind::RWLock && r.tpost == 0 && ix.GidOf(i) != gid) return true;
  }
  return false;
}

}  // namespace

void DetectDoubleLocks(const OccurredIndex& ix, OccurredState* st, std::vector<Finding>* out) {
  for (const trace::Goroutine& g : ix.trace().goroutines) {
    const Gid gid = trace::GidOf(g);
    if (!ix.BlockedForever(gid)) continue;
    uint32_t blocked = ix.LastOp(gid);
    const Record& b = ix.rec(blocked);
    if (b.kind != Kind::MutexLock && b.kind != Kind::RWLock && b.kind != Kind::RLock) continue;
    ObjClass fam = ClassOf(b.kind);
    LockHolders h = ix.HoldersAtEnd(fam, trace::ObjectIdOf(b));
    uint32_t held = hb::kNoRecord;
    const char* why = nullptr;
    if (h.writer != hb::kNoRecord && ix.GidOf(h.writer) == gid) {
      held = h.writer;
      why = b.kind == Kind::RLock ? "RLock of an RWMutex it holds the write lock of"
                                  : "Lock of a mutex it already holds";
    } else if (fam == ObjClass::RWMutex) {
      for (uint32_t r : h.readers) {
        if (ix.GidOf(r) != gid) continue;
        if (b.kind == Kind::RWLock) {
          held = r;
          why = "Lock of an RWMutex it holds a read lock of";
        } else if (b.kind == Kind::RLock && WriterWaiting(ix, trace::ObjectIdOf(b), gid)) {
          held = r;
          why = "a second RLock of an RWMutex while a writer waits";
        }
        break;
      }
    }
    if (held == hb::kNoRecord) continue;
    std::string id = ix.StableId(gid);
    Finding f = OccurredFinding(ix, FindingKind::DoubleLock, blocked);
    f.message = fmt::format(
        "goroutine {} is blocked forever on {} (locked at {}); Go locks are not reentrant", id,
        why, ShortSite(ix, held));
    f.locations.push_back(ix.Loc(blocked, Role::Lock));
    f.locations.push_back(ix.Loc(held, Role::Lock));
    f.interleaving.push_back(ix.StepOf(held, Role::Lock, OpName(ix.rec(held)) + ": acquired"));
    f.interleaving.push_back(
        ix.StepOf(blocked, Role::Lock, OpName(b) + ": blocks forever (held by itself)"));
    FinishFinding(ix, &f);
    out->push_back(std::move(f));
    st->explained_blocked.insert(gid);
  }
}

}  // namespace gordian::detect
