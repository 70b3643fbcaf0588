// This file owns the extraction of sync operations (extract_internal.h,
// Extractor; the Sync family of ir/op_kinds.def): Mutex and RWMutex
// (TryLock, RLocker), WaitGroup (Add, Done, Wait, Go), Once.Do and Cond.

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

bool Extractor::OpSync(Ctx& c, Frame& f, const ir::Op& op) {
  switch (op.kind) {
    case OpKind::kLock: case OpKind::kUnlock: case OpKind::kRLock: case OpKind::kRUnlock:
    case OpKind::kTryLock: case OpKind::kTryRLock: case OpKind::kRLocker:
      OpLock(c, f, op);
      return false;
    case OpKind::kWgAdd: case OpKind::kWgDone: case OpKind::kWgWait: case OpKind::kWgGo:
      OpWaitGroup(c, f, op);
      return false;
    case OpKind::kOnceDo: OpOnceDo(c, f, op); return false;
    case OpKind::kCondNew: case OpKind::kCondWait: case OpKind::kCondSignal: case OpKind::kCondBroadcast:
      OpCond(c, f, op);
      return false;
    default: return false;
  }
}

// Mutex and RWMutex: Lock, Unlock, TryLock, their read forms and RLocker.
void Extractor::OpLock(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  auto on = [&](Prim p) { return Handle(c, f, op, Key::kOn, p); };
  switch (op.kind) {
    case OpKind::kLock: case OpKind::kUnlock: {
      const std::string* ref = op.fields.Get(Key::kOn);
      bool r = ref && Lookup(c, f, *ref, pos).rlocker;
      InstrKind k = op.kind == OpKind::kLock ? (r ? InstrKind::kRLock : InstrKind::kLock)
                                             : (r ? InstrKind::kRUnlock : InstrKind::kUnlock);
      Simple(c, op, k, on(LockPrim(op)));
      return;
    }
    case OpKind::kRLock: Simple(c, op, InstrKind::kRLock, on(Prim::kRWMutex)); return;
    case OpKind::kRUnlock: Simple(c, op, InstrKind::kRUnlock, on(Prim::kRWMutex)); return;
    case OpKind::kTryLock: case OpKind::kTryRLock: {
      int m = on(op.kind == OpKind::kTryLock ? LockPrim(op) : Prim::kRWMutex);
      Val v;
      if (m >= 0 && !c.opaque.count(m)) {
        int ok = NewSlot(c);
        Emit(c, Make(InstrKind::kTryLock, pos, m, ok, op.kind == OpKind::kTryRLock ? 1 : -1));
        v.kind = Val::kInt;
        v.expr = Expr::Local(ok);
      }
      Define(f, op, v);
      return;
    }
    case OpKind::kRLocker: {
      Val v;
      int m = on(Prim::kRWMutex);
      if (m >= 0) {
        v.kind = Val::kHandle;
        v.slot = m;
        v.rlocker = true;
      }
      Define(f, op, v);
      return;
    }
    default: return;
  }
}

// WaitGroup: Add, Done (an Add of -1), Wait and Go (an Add of 1, then a
// goroutine that calls Done at its end).
void Extractor::OpWaitGroup(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  int wg = Handle(c, f, op, Key::kOn, Prim::kWaitGroup);
  if (op.kind == OpKind::kWgWait) {
    Simple(c, op, InstrKind::kWgWait, wg);
    return;
  }
  if (wg < 0 || c.opaque.count(wg)) {
    Simple(c, op, InstrKind::kWgAdd, wg);
    return;
  }
  if (op.kind == OpKind::kWgAdd) {
    Instr in = Make(InstrKind::kWgAdd, pos, wg);
    in.expr = TranslateText(c, f, op.fields.Get(Key::kDelta), true, true);
    Emit(c, std::move(in));
    return;
  }
  if (op.kind == OpKind::kWgDone) {
    Instr in = Make(InstrKind::kWgAdd, pos, wg);
    in.expr = Expr::Const(-1);
    in.text = "Done";
    Emit(c, std::move(in));
    return;
  }
  Instr add = Make(InstrKind::kWgAdd, pos, wg);
  add.expr = Expr::Const(1);
  Emit(c, std::move(add));
  Val fnv = Lookup(c, f, *op.fields.Get(Key::kFn), pos);
  if (fnv.kind != Val::kClosure) {
    Note(pos, "WaitGroup.Go of a function value the model does not know: its goroutine is left out");
    Instr done = Make(InstrKind::kWgAdd, pos, wg);
    done.expr = Expr::Const(-1);
    Emit(c, std::move(done));
    return;
  }
  Spawn(c, f, fnv.fn, {}, fnv.elems, pos, wg);
}

// Once.Do: the function inlined between once-begin and once-end.
void Extractor::OpOnceDo(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  int once = Handle(c, f, op, Key::kOn, Prim::kOnce);
  Val fnv = Lookup(c, f, *op.fields.Get(Key::kFn), pos);
  if (once < 0 || c.opaque.count(once)) {
    Note(pos, "Once.Do on a Once the model does not track: the function is run every time");
    if (fnv.kind == Val::kClosure) InlineCall(c, f, fnv.fn, {}, fnv.elems, nullptr, pos);
    return;
  }
  int after = NewLabel(c);
  Emit(c, Make(InstrKind::kOnceBegin, pos, once, after));
  if (fnv.kind == Val::kClosure) {
    InlineCall(c, f, fnv.fn, {}, fnv.elems, nullptr, pos);
  } else {
    Note(pos, "Once.Do of a function value the model does not know: taken as doing nothing");
  }
  Emit(c, Make(InstrKind::kOnceEnd, pos, once));
  Place(c, after);
}

// Cond: NewCond (of the locker it names, or the mutex used just before),
// Wait, Signal and Broadcast.
void Extractor::OpCond(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  switch (op.kind) {
    case OpKind::kCondNew: {
      const std::string* lref = op.fields.Get(Key::kLocker);
      Val lv = lref ? Lookup(c, f, *lref, pos) : Val{};
      if (lv.kind == Val::kGlobal) lv = GlobalVal(c, lv, Prim::kMutex, pos);
      if (lv.kind == Val::kNone && c.last_mutex >= 0) {
        // The IR does not follow &mu into the sync.Locker interface:
        // take the mutex this process made or reached last.
        lv.kind = Val::kHandle;
        lv.slot = c.last_mutex;
        Note(pos, "sync.NewCond's locker is taken to be the mutex used just before");
      }
      Val v;
      if (lv.kind == Val::kHandle || lv.kind == Val::kCell) {
        v.kind = Val::kHandle;
        v.slot = NewSlot(c);
        Emit(c, Make(InstrKind::kMakeCond, pos, v.slot, lv.slot, lv.rlocker ? 1 : -1));
      } else {
        Note(pos, "sync.NewCond of a locker the model does not track: the Cond is left out");
      }
      Define(f, op, v);
      return;
    }
    case OpKind::kCondWait: Simple(c, op, InstrKind::kCondWait, Handle(c, f, op, Key::kOn, Prim::kCond)); return;
    case OpKind::kCondSignal: Simple(c, op, InstrKind::kCondSignal, Handle(c, f, op, Key::kOn, Prim::kCond)); return;
    case OpKind::kCondBroadcast:
      Simple(c, op, InstrKind::kCondBroadcast, Handle(c, f, op, Key::kOn, Prim::kCond));
      return;
    default: return;
  }
}

}  // namespace gordian::verify::extract_internal
