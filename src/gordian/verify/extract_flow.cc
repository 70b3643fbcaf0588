// This file owns the extraction of where primitives flow (extract_internal.h,
// Extractor; the Flow family of ir/op_kinds.def): allocations, struct
// fields, stores and loads through cells, phis of holders, copies (tuple
// elements, elements of collections), slices of known length and the
// variables a Cond's predicate reads.

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

bool Extractor::OpFlow(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  switch (op.kind) {
    case OpKind::kAlloc: OpAlloc(c, f, op); return false;
    case OpKind::kVarNew: {
      Val v;
      const std::string* name = op.fields.Get(Key::kName);
      if (name && preds_.names.count(*name)) {
        v.kind = Val::kVar;
        v.slot = NewSlot(c);
        Instr in = Make(InstrKind::kMakeVar, pos, v.slot);
        in.expr = Expr::Const(0);
        in.text = *name;
        Emit(c, std::move(in));
      }
      Define(f, op, v);
      return false;
    }
    case OpKind::kVarStore: OpVarStore(c, f, op); return false;
    case OpKind::kField: {
      Prim p = PrimOf(op);
      Val base = Lookup(c, f, *op.fields.Get(Key::kBase), pos);
      if (base.kind == Val::kGlobal) base = GlobalVal(c, base, Prim::kHolder, pos);
      Val v;
      if (base.kind == Val::kHolder) {
        v = FieldVal(c, base.holder, *op.fields.Get(Key::kField), p, op.fields.Flag(Key::kAddr), pos);
        if (p == Prim::kMutex || p == Prim::kRWMutex) c.last_mutex = v.slot;
      } else if (base.kind == Val::kHandle && *op.fields.Get(Key::kField) == "C") {
        v = base;  // a Timer's channel: the timer is its channel
      }
      Define(f, op, v);
      return false;
    }
    case OpKind::kStore: OpStore(c, f, op); return false;
    case OpKind::kLoad: OpLoad(c, f, op); return false;
    case OpKind::kPhi: {
      if (PrimOf(op) != Prim::kHolder) return false;  // its slot was made up front
      Val v;
      for (const std::string& r : SplitRefs(op.fields.Get(Key::kEdges))) {
        Val e = Lookup(c, f, r, pos);
        if (e.kind == Val::kHolder) {
          v = e;
          break;
        }
      }
      Define(f, op, v);
      return false;
    }
    case OpKind::kSized: {
      // Translated tentatively: its parameters shape nothing until a
      // len() or a loop bound reads them (Translate).
      Val v;
      tentative_ = true;
      v.expr = TranslateText(c, f, op.fields.Get(Key::kLen), true, false);
      tentative_ = false;
      if (!v.expr.Unknown()) v.kind = Val::kSized;
      // A slice of a collection of channels is that collection, with this length.
      if (const std::string* sref = op.fields.Get(Key::kSrc)) {
        Val coll = Lookup(c, f, *sref, pos);
        if (coll.kind == Val::kColl) {
          coll.expr = v.expr;
          v = coll;
        }
      }
      Define(f, op, std::move(v));
      return false;
    }
    case OpKind::kCopy: OpCopy(c, f, op); return false;
    default: return false;
  }
}

// A new holder, a zero sync value, or a cell (nil) for a reference.
void Extractor::OpAlloc(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  Prim p = PrimOf(op);
  const std::string* type = op.fields.Get(Key::kType);
  Val v;
  if (p == Prim::kHolder) {
    v.kind = Val::kHolder;
    v.holder = NewHolder(c, Holder::kLocal, -1, "");
  } else if (IsValuePrim(p) && type && !type->starts_with("*")) {
    v.kind = Val::kHandle;
    v.slot = NewSlot(c);
    InstrKind k = p == Prim::kMutex     ? InstrKind::kMakeMutex
                  : p == Prim::kRWMutex ? InstrKind::kMakeRWMutex
                  : p == Prim::kOnce    ? InstrKind::kMakeOnce
                                        : InstrKind::kMakeWaitGroup;
    Emit(c, Make(k, pos, v.slot));
    if (p == Prim::kMutex || p == Prim::kRWMutex) c.last_mutex = v.slot;
  } else if (p != Prim::kNone) {
    v.kind = Val::kCell;
    v.slot = NewSlot(c);
    Instr in = Make(InstrKind::kAssign, pos, v.slot);
    in.expr = Expr::Const(-1);
    Emit(c, std::move(in));
  }
  Define(f, op, v);
}

// A store to a tracked variable (a Cond predicate's data).
void Extractor::OpVarStore(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  ir::Expr cell;
  std::string err;
  if (!ir::ParseExpr(*op.fields.Get(Key::kCell), &cell, &err)) return;
  int var = VarSlot(c, f, cell, pos);
  if (var < 0) {
    // A flag stored through a struct the model does not know may be a
    // struct it made: its tests there can no longer be trusted.
    const std::string* flag = FlagOf(cell);
    if (flag && HolderOf(c, f, cell.items[1], pos) < 0) lost_flags_.insert(*flag);
    return;
  }
  var_loads_ = true;
  var_pos_ = pos;
  Expr val = TranslateText(c, f, op.fields.Get(Key::kValue), false, false);
  var_loads_ = false;
  Instr in = Make(InstrKind::kStoreVar, pos, var);
  in.expr = std::move(val);
  in.text = *op.fields.Get(Key::kCell);
  Emit(c, std::move(in));
}

void Extractor::OpStore(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  Prim p = PrimOf(op);
  Val addr = Lookup(c, f, *op.fields.Get(Key::kAddr), pos);
  if (addr.kind == Val::kGlobal) addr = GlobalVal(c, addr, p, pos);
  Val val = Lookup(c, f, *op.fields.Get(Key::kVal), pos);
  if (addr.kind == Val::kHolder && val.kind == Val::kHolder) {
    int a = Resolve(c, addr.holder), v = Resolve(c, val.holder);
    if (a != v) {
      if (c.holders[a].fields.empty()) {
        c.holders[a].redirect = v;
      } else {
        Note(pos, "a struct stored over one whose fields were used: the first is kept");
        for (const auto& [name, fs] : c.holders[a].fields) {
          if (fs.slot >= 0) c.nil_unknown.insert(fs.slot);
        }
      }
    }
  } else if (addr.kind == Val::kElem && (val.kind == Val::kHandle || val.kind == Val::kCell) &&
             !IsValuePrim(p)) {
    WriteElem(c, addr, val.slot, pos);
  } else if (addr.kind == Val::kCell && (val.kind == Val::kHandle || val.kind == Val::kCell)) {
    Instr in = Make(InstrKind::kAssign, pos, addr.slot);
    in.expr = Expr::Local(val.slot);
    Emit(c, std::move(in));
    if (c.opaque.count(val.slot)) c.opaque.insert(addr.slot);
  } else if (addr.kind == Val::kHandle && val.kind == Val::kHandle && IsValuePrim(p)) {
    Note(pos, "a sync value copied over another: the copy is taken as the same object");
  } else if (addr.kind != Val::kNone) {
    Note(pos, "a store the model does not follow");
    if (addr.kind == Val::kCell) c.nil_unknown.insert(addr.slot);
    if (addr.kind == Val::kHolder) {
      Holder& h = c.holders[Resolve(c, addr.holder)];
      h.nil_unknown = true;
      for (const auto& [name, fs] : h.fields) {
        if (fs.slot >= 0) c.nil_unknown.insert(fs.slot);
      }
    }
  }
}

void Extractor::OpLoad(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  Prim p = PrimOf(op);
  Val addr = Lookup(c, f, *op.fields.Get(Key::kAddr), pos);
  if (addr.kind == Val::kGlobal) addr = GlobalVal(c, addr, p, pos);
  Val v;
  if (addr.kind == Val::kHolder) {
    v = addr;
  } else if (addr.kind == Val::kElem) {
    v.kind = Val::kHandle;
    v.slot = ReadElem(c, addr, pos);
  } else if (addr.kind == Val::kCell) {
    v.kind = Val::kHandle;
    v.slot = NewSlot(c);
    Instr in = Make(InstrKind::kAssign, pos, v.slot);
    in.expr = Expr::Local(addr.slot);
    Emit(c, std::move(in));
    if (c.opaque.count(addr.slot)) c.opaque.insert(v.slot);
  } else if (addr.kind == Val::kHandle) {
    v = addr;  // a sync value loaded by value: the same object
  } else if (addr.kind == Val::kClosure) {
    v = addr;
  }
  Define(f, op, v);
}

// A copy: an element of a tuple, a primitive of a collection the model
// tracks (its cells made at its first use), or the value itself.
void Extractor::OpCopy(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  Val src = Lookup(c, f, *op.fields.Get(Key::kSrc), pos);
  const std::string* how = op.fields.Get(Key::kHow);
  Val v;
  if (how && *how == "extract") {
    int64_t i = 0;
    const std::string* idx = op.fields.Get(Key::kIndex);
    if (src.kind == Val::kTuple && idx && ParseInt64(*idx, &i) && i >= 0 &&
        i < static_cast<int64_t>(src.elems.size())) {
      v = src.elems[i];
    }
  } else if (how && *how == "index" && (PrimOf(op) == Prim::kChan || IsValuePrim(PrimOf(op)))) {
    // A primitive of a slice or array the IR says where it was made
    // (`sized`: a local array, make([]T, n), a slice passed with its
    // length): an element of a collection the model tracks, whose
    // cells are made at its first use.
    const std::string& sref = *op.fields.Get(Key::kSrc);
    if (src.kind == Val::kSized && src.elems.empty()) {
      int n = kMaxElems;
      if (src.expr.nodes.size() == 1 && src.expr.nodes[0].op == ExprOp::kConst &&
          src.expr.nodes[0].value >= 0 && src.expr.nodes[0].value < kMaxElems) {
        n = static_cast<int>(src.expr.nodes[0].value);
      }
      Expr len = src.expr;
      src = NewColl(c, n, PrimOf(op), pos);
      src.expr = len;
      f.vals[sref] = src;
    }
    if (src.kind == Val::kColl) {
      v.kind = Val::kElem;
      v.elems = src.elems;
      v.expr = TranslateText(c, f, op.fields.Get(Key::kAt), false, false);
    } else {
      Note(pos, "a channel taken from a slice, array or map the model does not track: its operations are left out");
    }
  } else if (how && (*how == "index" || *how == "lookup")) {
    Note(pos, "a primitive taken from a slice, array or map: its operations are left out");
  } else {
    v = src;
  }
  Define(f, op, v);
}

}  // namespace gordian::verify::extract_internal
