// This file owns the extraction of contexts and timers (extract_internal.h,
// Extractor; the Context and Timer families of ir/op_kinds.def): contexts
// as objects that may be cancelled (by a cancel, a parent or a timeout),
// timers and tickers as channels the environment fires.
#include <fmt/format.h>

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

bool Extractor::OpContext(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  switch (op.kind) {
    case OpKind::kCtxRoot: case OpKind::kCtxDetach: {
      Val v;
      v.kind = Val::kHandle;
      v.slot = NewSlot(c);
      Emit(c, Make(InstrKind::kMakeContext, pos, v.slot, -1, -1));
      Define(f, op, v);
      return false;
    }
    case OpKind::kCtxCancel: case OpKind::kCtxTimeout: {
      int parent = Handle(c, f, op, Key::kParent, Prim::kContext);
      bool timer = op.kind == OpKind::kCtxTimeout;
      if (parent >= 0 && c.opaque.count(parent)) parent = -1;
      if (parent < 0) {
        Note(pos, "a context derived from one the model does not track: it may be cancelled at any time");
        timer = true;
      }
      Val ctx;
      ctx.kind = Val::kHandle;
      ctx.slot = NewSlot(c);
      Emit(c, Make(InstrKind::kMakeContext, pos, ctx.slot, parent, timer ? 1 : -1));
      Val v;
      v.kind = Val::kTuple;
      v.elems = {ctx, ctx};
      Define(f, op, v);
      return false;
    }
    case OpKind::kCtxDone: {
      int ctx = Handle(c, f, op, Key::kOn, Prim::kContext);
      Val v;
      if (ctx >= 0) {
        v.kind = Val::kHandle;
        v.slot = NewSlot(c);
        if (c.opaque.count(ctx)) {
          c.opaque.insert(v.slot);
        } else {
          Emit(c, Make(InstrKind::kCtxDone, pos, v.slot, ctx));
        }
      } else {
        Note(pos, "Done of a context the model does not track: its channel is left out");
      }
      Define(f, op, v);
      return false;
    }
    case OpKind::kCtxErr: Define(f, op, Val{}); return false;
    case OpKind::kCancel: Simple(c, op, InstrKind::kCancel, Handle(c, f, op, Key::kOn, Prim::kCancel)); return false;
    case OpKind::kCtxAfterFunc:
      Note(pos, fmt::format("{}: the function it runs later is not modelled", ir::OpKindName(op.kind)));
      Define(f, op, Val{});
      return false;
    default: return false;
  }
}

bool Extractor::OpTimer(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  switch (op.kind) {
    case OpKind::kTimerAfterFunc:
      Note(pos, fmt::format("{}: the function it runs later is not modelled", ir::OpKindName(op.kind)));
      Define(f, op, Val{});
      return false;
    case OpKind::kTimerAfter: case OpKind::kTimerTick: case OpKind::kTimerNew:
    case OpKind::kTimerNewTicker: {
      Val v;
      v.kind = Val::kHandle;
      v.slot = NewSlot(c);
      bool many = op.kind == OpKind::kTimerTick || op.kind == OpKind::kTimerNewTicker;
      Emit(c, Make(InstrKind::kMakeTimer, pos, v.slot, -1, many ? 1 : -1));
      Define(f, op, v);
      return false;
    }
    case OpKind::kTimerStop: {
      int t = Handle(c, f, op, Key::kOn, Prim::kTimer);
      if (t >= 0 && !c.opaque.count(t)) Emit(c, Make(InstrKind::kStopTimer, pos, t));
      Define(f, op, Val{});
      return false;
    }
    case OpKind::kTimerReset:
      Note(pos, "Timer.Reset: the timer is taken as firing at most as before");
      Define(f, op, Val{});
      return false;
    case OpKind::kSleep: Emit(c, Make(InstrKind::kNop, pos)); return false;
    default: return false;
  }
}

}  // namespace gordian::verify::extract_internal
