// This file owns the model checker's successor expansion (checker_internal.h,
// Explorer): every move one process can make from the current state, one
// function per instruction or family of instructions, always inlined into
// ExpandProc's one dispatch (the search's innermost loop), and the moves of
// the environment (timers fire, timeouts cancel).
#include <fmt/format.h>

#include <algorithm>

#include "gordian/verify/checker_internal.h"

namespace gordian::verify::checker_internal {

bool Explorer::TryAcquire(int32_t p, int32_t lock, bool read) {
  if (Obj(lock, 0) == kOMutex) {
    if (Obj(lock, 1) != -1) return false;
    WO(lock, 1) = p;
    return true;
  }
  if (read) {
    if (Obj(lock, 1) != -1) return false;
    WO(lock, 3) += 1;
    WO(lock, 4) |= ReaderBit(p);
    return true;
  }
  if (Obj(lock, 1) != -1 || Obj(lock, 3) != 0) return false;
  WO(lock, 1) = p;
  WO(lock, 2) = 1;
  return true;
}

bool Explorer::Release(int32_t p, int32_t lock, bool read) {
  if (Obj(lock, 0) == kOMutex) {
    if (Obj(lock, 1) == -1) return false;
    WO(lock, 1) = -1;
    return true;
  }
  if (read) {
    if (Obj(lock, 3) == 0) return false;
    WO(lock, 3) -= 1;
    WO(lock, 4) &= ~ReaderBit(p);
    return true;
  }
  if (!Obj(lock, 2)) return false;
  WO(lock, 1) = -1;
  WO(lock, 2) = 0;
  return true;
}

// The moves of p sending on ch (case sc of a select, or -1): a panic when
// closed, a buffered send, or a rendezvous with each receiver.
void Explorer::ExpandSend(int32_t p, int32_t ch, int32_t sc, bool* ready) {
  const Instr& in = At(p);
  auto after = [&](int32_t who) {
    if (sc >= 0) Goto(who, in.cases[sc].target);
    else Next(who);
  };
  if (Obj(ch, 3)) {
    Panic(FindingKind::SendOnClosed, StepOf(p, sc));
    *ready = true;
    return;
  }
  if (Obj(ch, 1) > 0) {
    if (Obj(ch, 2) < Obj(ch, 1)) {
      Begin();
      WO(ch, 2) += 1;
      after(p);
      Commit(StepOf(p, sc));
      *ready = true;
    }
    return;
  }
  for (int32_t q = 0; q < nproc_; ++q) {
    if (q == p || St(q) != kRun || Tmpl(q) < 0) continue;
    const Instr& qi = At(q);
    if (qi.kind == InstrKind::kRecv && Locals(q)[qi.a] == ch) {
      Begin();
      after(p);
      if (qi.b >= 0) WL(q, qi.b) = 1;
      Next(q);
      Commit(StepOf(p, sc), StepOf(q), 2);
    } else if (qi.kind == InstrKind::kSelect) {
      for (size_t i = 0; i < qi.cases.size(); ++i) {
        const SelectCase& c = qi.cases[i];
        if (c.send || Locals(q)[c.chan] != ch) continue;
        Begin();
        after(p);
        if (c.ok >= 0) WL(q, c.ok) = 1;
        Goto(q, c.target);
        Commit(StepOf(p, sc), StepOf(q, static_cast<int32_t>(i)), 2);
      }
    }
  }
}

// A process not at kRun: a writer waiting for readers to leave, or a
// Cond's waiter (woken: it relocks).
void Explorer::ExpandWaiting(int32_t p, int32_t status, const Instr& in, const int32_t* loc) {
  if (status == kRwWaitReaders) {
    const int32_t l = loc[in.a];
    if (Obj(l, 3) == 0) {
      Begin();
      WO(l, 2) = 1;
      Next(p);
      Commit(StepOf(p));
    }
    return;
  }
  if (status == kCondWaiting) return;  // Signal/Broadcast moves it
  if (status == kCondRelock) {
    const int32_t cond = loc[in.a];
    Begin();
    if (TryAcquire(p, Obj(cond, 1), Obj(cond, 2) == 1)) {
      Next(p);
      Commit(StepOf(p));
    }
  }
}

// --- local steps --------------------------------------------------------------

void Explorer::ExpandBranch(int32_t p, const Instr& in, const int32_t* loc) {
  int64_t v = 0;
  if (Eval(in.expr, loc, &v)) {
    Begin(); Goto(p, v ? in.a : in.b); Commit(StepOf(p));
  } else {
    Begin(); Goto(p, in.a); Commit(StepOf(p));
    if (in.b != in.a) { Begin(); Goto(p, in.b); Commit(StepOf(p)); }
  }
}

void Explorer::ExpandAssign(int32_t p, const Instr& in, const int32_t* loc) {
  for (int64_t x : Counts(in.expr, loc)) {
    Begin(); WL(p, in.a) = static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2));
    Next(p); Commit(StepOf(p));
  }
}

// --- making objects -----------------------------------------------------------

void Explorer::ExpandMakeChan(int32_t p, const Instr& in, const int32_t* loc) {
  for (int64_t cap : Counts(in.expr, loc)) {
    if (cap < 0) { Panic(FindingKind::Panic, StepOf(p)); continue; }
    Begin();
    const int32_t o = NewObj(kOChan, static_cast<int32_t>(std::min<int64_t>(cap, INT32_MAX / 2)));
    if (o < 0) return;
    WL(p, in.a) = o; Next(p); Commit(StepOf(p));
  }
}

// A Mutex, an RWMutex, a WaitGroup or a Once.
void Explorer::ExpandMakeSync(int32_t p, const Instr& in) {
  const int32_t kind = in.kind == InstrKind::kMakeMutex ? kOMutex
                     : in.kind == InstrKind::kMakeRWMutex ? kORWMutex
                     : in.kind == InstrKind::kMakeWaitGroup ? kOWaitGroup : kOOnce;
  Begin();
  const int32_t o = kind == kOMutex || kind == kORWMutex ? NewObj(kind, -1) : NewObj(kind);
  if (o < 0) return;
  WL(p, in.a) = o; Next(p); Commit(StepOf(p));
}

void Explorer::ExpandMakeCond(int32_t p, const Instr& in) {
  const int32_t l = Handle(p, in.b, 0);
  if (l == -2) return;
  if (l >= 0 && Obj(l, 0) != kOMutex && Obj(l, 0) != kORWMutex) {
    ModelError(p, "a Cond's locker is not a lock");
    return;
  }
  Begin();
  const int32_t o = NewObj(kOCond, l, in.c == 1);
  if (o < 0) return;
  WL(p, in.a) = o; Next(p); Commit(StepOf(p));
}

void Explorer::ExpandMakeContext(int32_t p, const Instr& in) {
  const int32_t parent = in.b >= 0 ? Handle(p, in.b, kOContext) : -1;
  if (parent == -2) return;
  const bool cancelled = parent >= 0 && Obj(parent, 1);
  Begin();
  const int32_t done = NewObj(kOChan, 0, 0, cancelled);
  if (done < 0) return;
  const int32_t o = NewObj(kOContext, cancelled, parent, done, in.c == 1);
  if (o < 0) return;
  WL(p, in.a) = o; Next(p); Commit(StepOf(p));
}

void Explorer::ExpandMakeTimer(int32_t p, const Instr& in) {
  Begin();
  const int32_t o = NewObj(kOChan, 1, 0, 0, in.c == 1 ? kTimerTicker : kTimerOnce);
  if (o < 0) return;
  WL(p, in.a) = o; Next(p); Commit(StepOf(p));
}

void Explorer::ExpandMakeVar(int32_t p, const Instr& in, const int32_t* loc) {
  for (int64_t x : Counts(in.expr, loc)) {
    Begin();
    const int32_t o = NewObj(kOVar, static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2)));
    if (o < 0) return;
    WL(p, in.a) = o; Next(p); Commit(StepOf(p));
  }
}

// --- contexts and timers ------------------------------------------------------

void Explorer::ExpandCtxDone(int32_t p, const Instr& in) {
  const int32_t c = Handle(p, in.b, kOContext);
  if (c == -2) return;
  if (c == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  Begin(); WL(p, in.a) = Obj(c, 3); Next(p); Commit(StepOf(p));
}

void Explorer::ExpandCancel(int32_t p, const Instr& in) {
  const int32_t c = Handle(p, in.a, kOContext);
  if (c == -2) return;
  if (c == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  Begin(); CancelIn(c); Next(p); Commit(StepOf(p));
}

void Explorer::ExpandStopTimer(int32_t p, const Instr& in) {
  const int32_t t = Handle(p, in.a, kOChan);
  if (t == -2) return;
  if (t == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  Begin();
  if (Obj(t, 4) == kTimerOnce || Obj(t, 4) == kTimerTicker) WO(t, 4) = kTimerOff;
  Next(p); Commit(StepOf(p));
}

// --- channels (a send: ExpandSend) --------------------------------------------

void Explorer::ExpandRecv(int32_t p, const Instr& in) {
  const int32_t ch = Handle(p, in.a, kOChan);
  if (ch < 0) return;
  if (Obj(ch, 2) > 0 || Obj(ch, 3)) {
    const bool got = Obj(ch, 2) > 0;
    Begin();
    if (got) WO(ch, 2) -= 1;
    if (in.b >= 0) WL(p, in.b) = got;
    Next(p); Commit(StepOf(p));
  }
  // An unbuffered rendezvous is made from the sender's side.
}

void Explorer::ExpandClose(int32_t p, const Instr& in) {
  const int32_t ch = Handle(p, in.a, kOChan);
  if (ch == -2) return;
  if (ch == -1) { Panic(FindingKind::CloseOfNil, StepOf(p)); return; }
  if (Obj(ch, 3)) { Panic(FindingKind::CloseOfClosed, StepOf(p)); return; }
  Begin(); WO(ch, 3) = 1; Next(p); Commit(StepOf(p));
}

void Explorer::ExpandSelect(int32_t p, const Instr& in) {
  bool ready = false;
  for (size_t i = 0; i < in.cases.size(); ++i) {
    const SelectCase& c = in.cases[i];
    const int32_t ch = Handle(p, c.chan, kOChan);
    if (ch == -2) return;
    if (ch == -1) continue;
    const int32_t sc = static_cast<int32_t>(i);
    if (c.send) {
      ExpandSend(p, ch, sc, &ready);
    } else if (Obj(ch, 2) > 0 || Obj(ch, 3)) {
      const bool got = Obj(ch, 2) > 0;
      Begin();
      if (got) WO(ch, 2) -= 1;
      if (c.ok >= 0) WL(p, c.ok) = got;
      Goto(p, c.target);
      Commit(StepOf(p, sc));
      ready = true;
    }
    // A partner at its unbuffered send does not make the case ready:
    // nothing tells whether it already waits in the channel's queue or
    // has not got there yet, so the default stays possible (Go's
    // select sees only queued partners).
  }
  if (!ready && in.a >= 0) { Begin(); Goto(p, in.a); Commit(StepOf(p, -1)); }
}

// --- locks --------------------------------------------------------------------

// Lock and RLock.
void Explorer::ExpandLock(int32_t p, const Instr& in) {
  const bool read = in.kind == InstrKind::kRLock;
  const int32_t l = LockHandle(p, in.a, read, "Lock", "RLock");
  if (l < 0) return;
  const int32_t kind = Obj(l, 0);
  if (DoubleLocked(p)) {
    Bad b{FindingKind::DoubleLock, kind == kOMutex ? Primitive::Mutex : Primitive::RWMutex};
    b.where.push_back(StepOf(p));
    bads_.push_back(std::move(b));
    return;
  }
  Begin();
  if (TryAcquire(p, l, read)) {
    Next(p); Commit(StepOf(p));
  } else if (kind == kORWMutex && !read && Obj(l, 1) == -1) {
    // Readers hold it: announce (new readers now wait), then wait for them.
    WO(l, 1) = p;
    WP(p, 2) = kRwWaitReaders;
    Commit(StepOf(p));
  }
}

// Unlock and RUnlock.
void Explorer::ExpandUnlock(int32_t p, const Instr& in) {
  const bool read = in.kind == InstrKind::kRUnlock;
  const int32_t l = LockHandle(p, in.a, read, "Unlock", "RUnlock");
  if (l < 0) return;
  Begin();
  if (!Release(p, l, read)) { Panic(FindingKind::UnlockOfUnlocked, StepOf(p)); return; }
  Next(p); Commit(StepOf(p));
}

void Explorer::ExpandTryLock(int32_t p, const Instr& in) {
  const bool read = in.c == 1;
  const int32_t l = LockHandle(p, in.a, read, "TryLock", "TryRLock");
  if (l < 0) return;
  Begin();
  WL(p, in.b) = TryAcquire(p, l, read);
  Next(p); Commit(StepOf(p));
}

// --- WaitGroups, Onces, shared variables, Conds -----------------------------

void Explorer::ExpandWgAdd(int32_t p, const Instr& in, const int32_t* loc) {
  const int32_t wg = Handle(p, in.a, kOWaitGroup);
  if (wg == -2) return;
  if (wg == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  for (int64_t d : Counts(in.expr, loc)) {
    const int64_t c = Obj(wg, 1) + d;
    if (c < 0) { Panic(FindingKind::NegativeWaitGroup, StepOf(p)); continue; }
    Begin(); WO(wg, 1) = static_cast<int32_t>(std::min<int64_t>(c, INT32_MAX / 2)); Next(p); Commit(StepOf(p));
  }
}

void Explorer::ExpandWgWait(int32_t p, const Instr& in) {
  const int32_t wg = Handle(p, in.a, kOWaitGroup);
  if (wg == -2) return;
  if (wg == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  if (Obj(wg, 1) == 0) { Begin(); Next(p); Commit(StepOf(p)); }
}

// OnceBegin and OnceEnd.
void Explorer::ExpandOnce(int32_t p, const Instr& in) {
  const int32_t once = Handle(p, in.a, kOOnce);
  if (once == -2) return;
  if (once == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  Begin();
  if (in.kind == InstrKind::kOnceEnd) { WO(once, 1) = 2; Next(p); Commit(StepOf(p)); return; }
  if (Obj(once, 1) == 2) { Goto(p, in.b); Commit(StepOf(p)); }
  else if (Obj(once, 1) == 0) { WO(once, 1) = 1; Next(p); Commit(StepOf(p)); }
  // 1: another process runs it.
}

void Explorer::ExpandLoadVar(int32_t p, const Instr& in) {
  const int32_t var = Handle(p, in.b, kOVar);
  if (var == -2) return;
  if (var == -1) { ModelError(p, "load of a nil variable"); return; }
  Begin(); WL(p, in.a) = Obj(var, 1); Next(p); Commit(StepOf(p));
}

void Explorer::ExpandStoreVar(int32_t p, const Instr& in, const int32_t* loc) {
  const int32_t var = Handle(p, in.a, kOVar);
  if (var == -2) return;
  if (var == -1) { ModelError(p, "store to a nil variable"); return; }
  for (int64_t x : Counts(in.expr, loc)) {
    Begin(); WO(var, 1) = static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN / 2, INT32_MAX / 2));
    Next(p); Commit(StepOf(p));
  }
}

void Explorer::ExpandCondWait(int32_t p, const Instr& in) {
  const int32_t cond = Handle(p, in.a, kOCond);
  if (cond == -2) return;
  if (cond == -1 || Obj(cond, 1) < 0) { Panic(FindingKind::Panic, StepOf(p)); return; }
  Begin();
  if (!Release(p, Obj(cond, 1), Obj(cond, 2) == 1)) { Panic(FindingKind::UnlockOfUnlocked, StepOf(p)); return; }
  WP(p, 2) = kCondWaiting;
  Commit(StepOf(p));
}

// Signal (a move per waiter it may wake) and Broadcast.
void Explorer::ExpandCondWake(int32_t p, const Instr& in) {
  const int32_t cond = Handle(p, in.a, kOCond);
  if (cond == -2) return;
  if (cond == -1) { Panic(FindingKind::Panic, StepOf(p)); return; }
  bool any = false;
  if (in.kind == InstrKind::kCondBroadcast) Begin();
  for (int32_t q = 0; q < nproc_; ++q) {
    if (St(q) != kCondWaiting || Locals(q)[At(q).a] != cond) continue;
    any = true;
    if (in.kind == InstrKind::kCondSignal) {
      Begin(); WP(q, 2) = kCondRelock; Next(p); Commit(StepOf(p), StepOf(q), 2);
    } else {
      WP(q, 2) = kCondRelock;
    }
  }
  if (in.kind == InstrKind::kCondBroadcast) { Next(p); Commit(StepOf(p)); }
  else if (!any) { Begin(); Next(p); Commit(StepOf(p)); }
}

// --- processes ----------------------------------------------------------------

void Explorer::ExpandGo(int32_t p, const Instr& in, const int32_t* loc) {
  const Template& callee = m_.templates[in.b];
  // The new process takes the first ended process's place (not 0's).
  int32_t slot = -1, live = 0;
  for (int32_t q = 0; q < nproc_; ++q) {
    if (Tmpl(q) >= 0) ++live;
    else if (q > 0 && slot < 0) slot = q;
  }
  if (live >= o_.max_processes) {
    Cut(fmt::format("more than {} live processes (max_processes)", o_.max_processes));
    return;
  }
  rec_.assign(kProcHeader + callee.num_locals, -1);
  rec_[0] = in.b;
  rec_[1] = 0;
  rec_[2] = kRun;
  for (size_t i = 0; i < in.args.size(); ++i) rec_[kProcHeader + i] = loc[in.args[i]];
  Begin();
  Next(p);
  int32_t at;
  if (slot >= 0) {
    at = off_[slot];
    w_.erase(w_.begin() + at, w_.begin() + at + kProcHeader);  // an ended record has no locals
  } else {
    at = obase_;
    w_[0] += 1;
  }
  w_.insert(w_.begin() + at, rec_.begin(), rec_.end());
  Commit(StepOf(p));
}

void Explorer::ExpandEnd(int32_t p) {
  Begin();
  // Locks it still holds stay held, by nobody that can lock again.
  for (int32_t o = 0; o < nobj_; ++o) {
    const int32_t k = Obj(o, 0);
    if ((k == kOMutex || k == kORWMutex) && Obj(o, 1) == p) WO(o, 1) = kHolderGone;
    if (k == kORWMutex) WO(o, 4) &= ~ReaderBit(p);
  }
  const int32_t at = off_[p];
  w_.erase(w_.begin() + at + kProcHeader, w_.begin() + at + kProcHeader + m_.templates[Tmpl(p)].num_locals);
  w_[at] = -1;
  w_[at + 1] = 0;
  w_[at + 2] = kEnded;
  Commit(StepOf(p));
}

// --- the dispatch ---------------------------------------------------------------

void Explorer::ExpandProc(int32_t p) {
  if (Tmpl(p) < 0) return;
  const Instr& in = At(p);
  const int32_t* loc = Locals(p);
  const int32_t status = St(p);
  if (status != kRun) {
    ExpandWaiting(p, status, in, loc);
    return;
  }
  switch (in.kind) {
    case InstrKind::kNop: Begin(); Next(p); Commit(StepOf(p)); return;
    case InstrKind::kJump: Begin(); Goto(p, in.a); Commit(StepOf(p)); return;
    case InstrKind::kBranch: ExpandBranch(p, in, loc); return;
    case InstrKind::kChoice:
      for (int32_t t : in.targets) { Begin(); Goto(p, t); Commit(StepOf(p)); }
      return;
    case InstrKind::kAssign: ExpandAssign(p, in, loc); return;
    case InstrKind::kMakeChan: ExpandMakeChan(p, in, loc); return;
    case InstrKind::kMakeMutex: case InstrKind::kMakeRWMutex:
    case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
      ExpandMakeSync(p, in);
      return;
    case InstrKind::kMakeCond: ExpandMakeCond(p, in); return;
    case InstrKind::kMakeContext: ExpandMakeContext(p, in); return;
    case InstrKind::kCtxDone: ExpandCtxDone(p, in); return;
    case InstrKind::kCancel: ExpandCancel(p, in); return;
    case InstrKind::kMakeTimer: ExpandMakeTimer(p, in); return;
    case InstrKind::kStopTimer: ExpandStopTimer(p, in); return;
    case InstrKind::kSend: {
      const int32_t ch = Handle(p, in.a, kOChan);
      if (ch < 0) return;  // nil: blocks forever
      bool ready = false;
      ExpandSend(p, ch, -1, &ready);
      return;
    }
    case InstrKind::kRecv: ExpandRecv(p, in); return;
    case InstrKind::kClose: ExpandClose(p, in); return;
    case InstrKind::kSelect: ExpandSelect(p, in); return;
    case InstrKind::kLock: case InstrKind::kRLock: ExpandLock(p, in); return;
    case InstrKind::kUnlock: case InstrKind::kRUnlock: ExpandUnlock(p, in); return;
    case InstrKind::kTryLock: ExpandTryLock(p, in); return;
    case InstrKind::kWgAdd: ExpandWgAdd(p, in, loc); return;
    case InstrKind::kWgWait: ExpandWgWait(p, in); return;
    case InstrKind::kMakeVar: ExpandMakeVar(p, in, loc); return;
    case InstrKind::kLoadVar: ExpandLoadVar(p, in); return;
    case InstrKind::kStoreVar: ExpandStoreVar(p, in, loc); return;
    case InstrKind::kOnceBegin: case InstrKind::kOnceEnd: ExpandOnce(p, in); return;
    case InstrKind::kCondWait: ExpandCondWait(p, in); return;
    case InstrKind::kCondSignal: case InstrKind::kCondBroadcast: ExpandCondWake(p, in); return;
    case InstrKind::kGo: ExpandGo(p, in, loc); return;
    case InstrKind::kPanic: Panic(FindingKind::Panic, StepOf(p)); return;
    case InstrKind::kEnd: ExpandEnd(p); return;
    case InstrKind::kCall: ModelError(p, "call is not run by the checker"); return;
  }
}

void Explorer::ExpandEnvironment() {
  for (int32_t o = 0; o < nobj_; ++o) {
    const int32_t kind = Obj(o, 0);
    const bool timer = kind == kOChan && (Obj(o, 4) == kTimerOnce || Obj(o, 4) == kTimerTicker) &&
                       Obj(o, 2) < Obj(o, 1);
    const bool timeout = kind == kOContext && Obj(o, 4) && !Obj(o, 1);
    if (!timer && !timeout) continue;
    Begin();
    if (timer) {
      WO(o, 2) += 1;
      if (Obj(o, 4) == kTimerOnce) WO(o, 4) = kTimerOff;
    } else {
      CancelIn(o);
    }
    Commit(MoveStep{}, MoveStep{}, 0);
    moves_.back().env = o;
  }
}

}  // namespace gordian::verify::checker_internal
