// This file owns the extraction of channel operations (extract_internal.h,
// Extractor; the Chan family of ir/op_kinds.def): make, send, receive,
// close and select.
#include <cstdlib>

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

bool Extractor::OpChan(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  switch (op.kind) {
    case OpKind::kMakeChan: {
      Val v;
      v.kind = Val::kHandle;
      v.slot = NewSlot(c);
      Instr in = Make(InstrKind::kMakeChan, pos, v.slot);
      in.expr = TranslateText(c, f, op.fields.Get(Key::kCap), true, true);
      Emit(c, std::move(in));
      Define(f, op, v);
      return false;
    }
    case OpKind::kSend: Simple(c, op, InstrKind::kSend, Handle(c, f, op, Key::kCh, Prim::kChan)); return false;
    case OpKind::kClose: Simple(c, op, InstrKind::kClose, Handle(c, f, op, Key::kCh, Prim::kChan)); return false;
    case OpKind::kRecv: {
      int ch = Handle(c, f, op, Key::kCh, Prim::kChan);
      Val v;
      int ok = -1;
      if (op.fields.Flag(Key::kCommaok)) {
        ok = NewSlot(c);
        v.kind = Val::kTuple;
        v.elems.resize(2);
        v.elems[1].kind = Val::kInt;
        v.elems[1].expr = Expr::Local(ok);
      }
      if (ch < 0) {
        Note(pos, "recv on a channel the model does not track: left out");
      } else if (!c.opaque.count(ch)) {
        Emit(c, Make(InstrKind::kRecv, pos, ch, ok));
      } else {
        v = Val{};
      }
      Define(f, op, v);
      return false;
    }
    case OpKind::kSelect: return Select(c, f, op);
    default: return false;
  }
}

bool Extractor::Select(Ctx& c, Frame& f, const ir::Op& op) {
  Instr in = Make(InstrKind::kSelect, op.pos);
  std::vector<int> outside_targets;
  // A case without a target, and the default of a non-blocking select
  // without a default block, continue after the select in its own block:
  // go/ssa branches on the chosen case only when the program uses it
  // (docs/ir-format.md, `case`).
  int after_select = -1;
  auto continue_after = [&] {
    if (after_select < 0) after_select = NewLabel(c);
    return after_select;
  };
  for (const ir::SelectCase& sc : op.cases) {
    const std::string* ch = sc.fields.Get(Key::kCh);
    const std::string* target = sc.fields.Get(Key::kTarget);
    int label;
    if (target) {
      int t = std::atoi(target->c_str());
      label = t >= 0 && t < static_cast<int>(f.block_label.size()) ? f.block_label[t] : f.exit_label;
    } else {
      label = continue_after();
    }
    int slot = -1;
    if (ch) {
      Val v = Lookup(c, f, *ch, sc.pos);
      if (v.kind == Val::kGlobal) v = GlobalVal(c, v, Prim::kChan, sc.pos);
      if (v.kind == Val::kHandle || v.kind == Val::kCell) slot = v.slot;
    }
    if (slot < 0 || c.opaque.count(slot)) {
      // A case on a channel the model does not have may fire whenever.
      if (slot < 0) Note(sc.pos, "a select case on a channel the model does not track: it may fire at any time");
      outside_targets.push_back(label);
      continue;
    }
    SelectCase mc;
    mc.send = sc.send;
    mc.chan = slot;
    mc.target = label;
    mc.pos = sc.pos;
    in.cases.push_back(mc);
  }
  const std::string* def = op.fields.Get(Key::kDefault);
  const std::string* blocking = op.fields.Get(Key::kBlocking);
  if (def) {
    int t = std::atoi(def->c_str());
    outside_targets.push_back(t >= 0 && t < static_cast<int>(f.block_label.size()) ? f.block_label[t]
                                                                                   : f.exit_label);
  } else if (blocking && *blocking == "0") {
    outside_targets.push_back(continue_after());
  }
  EmitSelect(c, std::move(in), outside_targets, op.pos);
  if (after_select >= 0) Place(c, after_select);
  return true;
}

// The select instruction and its way out when no case is ready (the
// default, or cases on channels the model does not have).
void Extractor::EmitSelect(Ctx& c, Instr in, const std::vector<int>& outside_targets, const ir::Pos& pos) {
  if (outside_targets.size() == 1) {
    in.a = outside_targets[0];
  } else if (outside_targets.size() > 1) {
    int label = NewLabel(c);
    in.a = label;
    int after = NewLabel(c);
    Emit(c, std::move(in));
    Emit(c, Make(InstrKind::kJump, pos, after));
    Place(c, label);
    Instr ch = Make(InstrKind::kChoice, pos);
    ch.targets = outside_targets;
    Emit(c, std::move(ch));
    Place(c, after);
    return;
  }
  if (in.cases.empty() && in.a >= 0) {
    Emit(c, Make(InstrKind::kJump, pos, in.a));
    return;
  }
  Emit(c, std::move(in));
}

}  // namespace gordian::verify::extract_internal
