// This file owns the model checker's view of stuck states
// (checker_internal.h, Explorer): what a blocked process waits on, who it
// waits for on a lock, a lock locked again by its holder, and the
// classification of a state without moves (a lock-order or mixed
// deadlock, goroutine leaks, a global deadlock).
#include <vector>

#include "gordian/verify/checker_internal.h"

namespace gordian::verify::checker_internal {

bool Explorer::DoubleLocked(int32_t p) const {
  if (St(p) != kRun || Tmpl(p) < 0) return false;
  const Instr& in = At(p);
  if (in.kind != InstrKind::kLock && in.kind != InstrKind::kRLock) return false;
  const int32_t l = Locals(p)[in.a];
  if (l < 0 || l >= nobj_) return false;
  if (Obj(l, 0) == kOMutex) return Obj(l, 1) == p;
  if (Obj(l, 0) == kORWMutex) {
    // Lock by a reader of the same RWMutex (an upgrade): the writer waits
    // for every reader, itself among them, so it never gets the lock.
    if (in.kind == InstrKind::kLock && Obj(l, 3) > 0 && (Obj(l, 4) & ReaderBit(p))) return true;
    return Obj(l, 1) == p && (in.kind == InstrKind::kLock || Obj(l, 2));
  }
  return false;
}

int32_t Explorer::LockWaitsFor(int32_t p) const {
  const Instr& in = At(p);
  if (St(p) == kRwWaitReaders) {
    // The writer waits for every reader; the first known one is its edge.
    const int32_t mask = Obj(Locals(p)[in.a], 4) & ~ReaderBit(p);
    for (int32_t q = 0; q < std::min(nproc_, kReaderBits); ++q)
      if (mask & ReaderBit(q)) return q;
    return -1;
  }
  int32_t l = -1;
  if (St(p) == kCondRelock) {
    l = Obj(Locals(p)[in.a], 1);
  } else if (St(p) == kRun && (in.kind == InstrKind::kLock || in.kind == InstrKind::kRLock)) {
    l = Locals(p)[in.a];
  }
  if (l < 0 || l >= nobj_) return -1;
  const int32_t holder = Obj(l, 1);
  return holder >= 0 && holder != p ? holder : -1;
}

Primitive Explorer::BlockedOn(int32_t p) const {
  const Instr& in = At(p);
  auto lock_kind = [&](int32_t l) {
    return l >= 0 && l < nobj_ && Obj(l, 0) == kORWMutex ? Primitive::RWMutex : Primitive::Mutex;
  };
  switch (St(p)) {
    case kRwWaitReaders: return Primitive::RWMutex;
    case kCondWaiting: return Primitive::Cond;
    case kCondRelock: return lock_kind(Obj(Locals(p)[in.a], 1));
    default: break;
  }
  switch (in.kind) {
    case InstrKind::kSend: return Locals(p)[in.a] < 0 ? Primitive::NilChan : Primitive::ChanSend;
    case InstrKind::kRecv: return Locals(p)[in.a] < 0 ? Primitive::NilChan : Primitive::ChanRecv;
    case InstrKind::kSelect: return Primitive::Select;
    case InstrKind::kLock: case InstrKind::kRLock: return lock_kind(Locals(p)[in.a]);
    case InstrKind::kWgWait: return Primitive::WaitGroup;
    case InstrKind::kOnceBegin: return Primitive::Mutex;  // sync.Once waits on its mutex
    default: return Primitive::None;
  }
}

void Explorer::Classify(const int32_t* s, int32_t n) {
  Parse(s, n);
  std::vector<int32_t> blocked;
  for (int32_t p = 0; p < nproc_; ++p) {
    if (Tmpl(p) < 0 || m_.templates[Tmpl(p)].environment || DoubleLocked(p)) continue;
    blocked.push_back(p);
  }
  if (blocked.empty()) return;
  auto blocked_step = [&](int32_t p) { return StepOf(p); };
  // A cycle of processes each waiting for a lock the next holds.
  for (int32_t p : blocked) {
    int32_t q = p;
    std::vector<int32_t> chain;
    for (int32_t i = 0; i <= nproc_ && q >= 0; ++i) {
      chain.push_back(q);
      q = LockWaitsFor(q);
      if (q == p) {
        Bad b{FindingKind::LockOrderDeadlock, BlockedOn(p)};
        for (int32_t c : chain) b.where.push_back(blocked_step(c));
        // A reader that read-locks again behind a waiting writer (Go's
        // RWMutex lets no new reader past an announced writer): a
        // recursive read lock, reported as a double lock.
        if (chain.size() == 2) {
          for (int32_t c : chain) {
            const int32_t other = c == chain[0] ? chain[1] : chain[0];
            if (St(c) == kRun && At(c).kind == InstrKind::kRLock && St(other) == kRwWaitReaders &&
                Locals(c)[At(c).a] == Locals(other)[At(other).a]) {
              b = Bad{FindingKind::DoubleLock, Primitive::RWMutex};
              b.where = {blocked_step(c), blocked_step(other)};
            }
          }
        }
        bads_.push_back(std::move(b));
        return;
      }
    }
  }
  // A process waits for a lock whose holder waits on a channel (or a
  // WaitGroup, a Cond): the holder's partner cannot come.
  for (int32_t p : blocked) {
    const int32_t h = LockWaitsFor(p);
    if (h < 0 || Tmpl(h) < 0) continue;
    const Primitive hp = BlockedOn(h);
    if (hp == Primitive::Mutex || hp == Primitive::RWMutex || hp == Primitive::None) continue;
    Bad b{FindingKind::MixedDeadlock, hp};
    b.where = {blocked_step(h), blocked_step(p)};
    bads_.push_back(std::move(b));
    return;
  }
  if (Tmpl(0) < 0) {
    for (int32_t p : blocked) {
      Bad b{FindingKind::GoroutineLeak, BlockedOn(p)};
      b.where.push_back(blocked_step(p));
      bads_.push_back(std::move(b));
    }
    return;
  }
  Bad b{FindingKind::GlobalDeadlock, Primitive::None};
  for (int32_t p : blocked) b.where.push_back(blocked_step(p));
  bads_.push_back(std::move(b));
}

}  // namespace gordian::verify::checker_internal
