// This file owns what model extraction knows of values (extract_internal.h,
// Extractor): the entry point's parameters and the model's parameters,
// holders (structs with primitive fields) and their field slots, tracked
// variables, the value an SSA reference names, collections of channels and
// sync values, and the translation of IR expressions to the model's (with
// the nil tests of the primitives whose slots the model follows).
#include <fmt/format.h>

#include <map>

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

// tentative_: the parameter is read by a plain test (not a capacity,
// delta or loop bound); it stays a parameter only if something that
// shapes concurrency reads it too (see DropTentative).
int Extractor::ParamIndex(const std::string& name, const std::string& source, bool mandatory) {
  for (size_t i = 0; i < model_.params.size(); i++) {
    if (model_.params[i].name == name) {
      if (mandatory && !tentative_) model_.params[i].mandatory = true;
      if (!tentative_) shaping_[i] = true;
      return static_cast<int>(i);
    }
  }
  shaping_.push_back(!tentative_);
  Parameter p;
  p.name = name;
  p.source = source;
  p.mandatory = mandatory && !tentative_;
  p.values = opts_.default_values;
  model_.params.push_back(std::move(p));
  return static_cast<int>(model_.params.size()) - 1;
}

Val Extractor::EntryParamVal(Ctx& c, const ir::Var& p) {
  Val v;
  std::string name = p.name.empty() ? p.ref : p.name;
  if (p.prim == Prim::kNone) {
    v.kind = Val::kEntryParam;
    v.name = name;
    return v;
  }
  if (p.prim == Prim::kHolder) {
    c.holders.push_back(Holder{Holder::kOutside, -1, -1, name, {}, {}});
    v.kind = Val::kHolder;
    v.holder = static_cast<int>(c.holders.size()) - 1;
    return v;
  }
  v.kind = Val::kHandle;
  v.slot = NewSlot(c);
  Outside(c, v.slot, p.prim, name, model_.pos);
  if (!p.type.empty() && p.type[0] == '*' && !IsValuePrim(p.prim)) v.kind = Val::kCell;
  return v;
}

// A primitive the entry point receives from outside: a zero sync object
// is made; a context may be cancelled at any time; a channel's other side
// is unknown, so operations on it are not modelled.
void Extractor::Outside(Ctx& c, int slot, Prim prim, const std::string& name, const ir::Pos& pos) {
  // A zero sync value stands for a value field and a pointer field alike,
  // and what comes from outside may be nil or not: no nil test decides.
  c.nil_unknown.insert(slot);
  switch (prim) {
    case Prim::kMutex: c.prologue.push_back(Make(InstrKind::kMakeMutex, pos, slot)); return;
    case Prim::kRWMutex: c.prologue.push_back(Make(InstrKind::kMakeRWMutex, pos, slot)); return;
    case Prim::kWaitGroup: c.prologue.push_back(Make(InstrKind::kMakeWaitGroup, pos, slot)); return;
    case Prim::kOnce: c.prologue.push_back(Make(InstrKind::kMakeOnce, pos, slot)); return;
    case Prim::kContext:
      c.prologue.push_back(Make(InstrKind::kMakeContext, pos, slot, -1, 1));
      return;
    default:
      c.opaque.insert(slot);
      Note(pos, fmt::format("{} ({}) comes from outside the entry point: its operations are not modelled",
                            name.empty() ? "a value" : name, ir::PrimName(prim)));
  }
}

int Extractor::Resolve(Ctx& c, int h) {
  for (int i = 0; i < 8 && h >= 0 && c.holders[h].redirect >= 0; i++) h = c.holders[h].redirect;
  return h;
}

int Extractor::NewHolder(Ctx& c, Holder::Origin origin, int parent, const std::string& name) {
  c.holders.push_back(Holder{origin, parent, -1, name, {}, {}});
  return static_cast<int>(c.holders.size()) - 1;
}

void Extractor::AddInput(Ctx& c, int slot, int parent_slot) {
  c.inputs.push_back(slot);
  c.go_args.push_back(parent_slot);
  if (c.parent->opaque.count(parent_slot)) c.opaque.insert(slot);
  if (NilUnknown(*c.parent, parent_slot)) c.nil_unknown.insert(slot);
}

// The field `name` of holder h: a holder, or the slot of the field.
FieldSlot Extractor::Field(Ctx& c, int h, const std::string& name, Prim prim, const ir::Pos& pos) {
  h = Resolve(c, h);
  auto it = c.holders[h].fields.find(name);
  if (it != c.holders[h].fields.end()) return it->second;
  FieldSlot fs;
  fs.prim = prim;
  Holder::Origin origin = c.holders[h].origin;
  std::string full = c.holders[h].name.empty() ? name : c.holders[h].name + "." + name;
  if (prim == Prim::kHolder) {
    int parent = -1;
    if (origin == Holder::kInput) parent = Field(*c.parent, c.holders[h].parent, name, prim, pos).holder;
    if (origin == Holder::kInput && parent < 0) origin = Holder::kOutside;
    fs.holder = NewHolder(c, origin, parent, full);
  } else {
    fs.slot = NewSlot(c);
    if (origin == Holder::kInput) {
      FieldSlot pf = Field(*c.parent, c.holders[h].parent, name, prim, pos);
      if (pf.slot >= 0) AddInput(c, fs.slot, pf.slot);
    } else if (origin == Holder::kOutside) {
      Outside(c, fs.slot, prim, full, pos);
    } else {
      // A field of a struct this process made: zero sync objects exist
      // from the start (made in the prologue), references start nil.
      if (IsValuePrim(prim)) {
        Outside(c, fs.slot, prim, full, pos);
      } else {
        Instr in = Make(InstrKind::kAssign, pos, fs.slot);
        in.expr = Expr::Const(-1);
        c.prologue.push_back(std::move(in));
      }
    }
  }
  if (fs.slot >= 0 && c.holders[h].nil_unknown) c.nil_unknown.insert(fs.slot);
  c.holders[Resolve(c, h)].fields[name] = fs;
  return fs;
}

// The slot of tracked variable `name` of holder h (a bool or integer
// field; holder 0's are package variables): the kVar object is made in
// the prologue of the process that made the holder, zero for a struct it
// made, any value for one from outside the model.
int Extractor::VarField(Ctx& c, int h, const std::string& name, const ir::Pos& pos) {
  h = Resolve(c, h);
  auto it = c.holders[h].vars.find(name);
  if (it != c.holders[h].vars.end()) return it->second;
  int slot = NewSlot(c);
  if (c.holders[h].origin == Holder::kInput && c.parent && c.holders[h].parent >= 0) {
    AddInput(c, slot, VarField(*c.parent, c.holders[h].parent, name, pos));
  } else {
    Instr in = Make(InstrKind::kMakeVar, pos, slot);
    if (c.holders[h].origin == Holder::kLocal) in.expr = Expr::Const(0);
    in.text = name;
    c.prologue.push_back(std::move(in));
  }
  c.holders[Resolve(c, h)].vars[name] = slot;
  return slot;
}

int Extractor::HolderOf(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos) {
  if (e.IsAtom()) {
    Val v = Lookup(c, f, e.atom, pos);
    if (v.kind == Val::kGlobal) v = GlobalVal(c, v, Prim::kHolder, pos);
    return v.kind == Val::kHolder ? v.holder : -1;
  }
  if (e.items.size() == 2 && e.items[0].IsAtom() && e.items[0].atom == "load") return HolderOf(c, f, e.items[1], pos);
  return -1;
}

// The slot of the tracked variable at address expression e, or -1.
int Extractor::VarSlot(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos) {
  if (e.IsAtom()) {
    Val v = Lookup(c, f, e.atom, pos);
    if (v.kind == Val::kVar) return v.slot;
    if (v.kind == Val::kGlobal && preds_.names.count("g:" + v.name)) return VarField(c, 0, "g:" + v.name, pos);
    return -1;
  }
  if (e.items.size() == 3 && e.items[0].IsAtom() && e.items[0].atom == "field" && e.items[2].IsAtom()) {
    const std::string& name = e.items[2].atom;
    const bool pred = preds_.fields.count(name) > 0;
    if (!pred && !preds_.flags.count(name)) return -1;
    int h = HolderOf(c, f, e.items[1], pos);
    // A flag is tracked only in a struct the model made (its zero value
    // is known); a predicate's variable in any struct.
    if (h >= 0 && (pred || MadeInModel(c, h))) return VarField(c, h, name, pos);
  }
  return -1;
}

const std::string* Extractor::FlagOf(const ir::Expr& e) const {
  if (e.IsAtom() || e.items.size() != 3 || !e.items[0].IsAtom() || e.items[0].atom != "field" ||
      !e.items[2].IsAtom()) {
    return nullptr;
  }
  const std::string& name = e.items[2].atom;
  return preds_.flags.count(name) && !preds_.fields.count(name) ? &name : nullptr;
}

bool Extractor::MadeInModel(Ctx& c, int h) {
  for (Ctx* x = &c; x != nullptr && h > 0; x = x->parent) {
    h = Resolve(*x, h);
    const Holder& hd = x->holders[h];
    if (hd.nil_unknown) return false;
    if (hd.origin != Holder::kInput) return hd.origin == Holder::kLocal;
    h = hd.parent;
  }
  return false;
}

Val Extractor::FieldVal(Ctx& c, int h, const std::string& name, Prim prim, bool addr, const ir::Pos& pos) {
  FieldSlot fs = Field(c, h, name, prim, pos);
  Val v;
  if (prim == Prim::kHolder) {
    v.kind = Val::kHolder;
    v.holder = fs.holder;
  } else {
    v.kind = (IsValuePrim(prim) || !addr) ? Val::kHandle : Val::kCell;
    v.slot = fs.slot;
  }
  return v;
}

Val Extractor::Lookup(Ctx& c, Frame& f, const std::string& ref, const ir::Pos& pos) {
  auto it = f.vals.find(ref);
  if (it != f.vals.end()) return it->second;
  Val v;
  int64_t n;
  if (ref == "nil") {
    v.kind = Val::kHandle;
    v.slot = NewSlot(c);
    Instr in = Make(InstrKind::kAssign, pos, v.slot);
    in.expr = Expr::Const(-1);
    Emit(c, std::move(in));
  } else if (ref.starts_with("g:")) {
    v.kind = Val::kGlobal;
    v.name = ref.substr(2);
  } else if (ref.starts_with("fn:")) {
    v.kind = Val::kClosure;
    v.fn = ref.substr(3);
  } else if (ParseInt64(ref, &n)) {
    v.kind = Val::kInt;
    v.expr = Expr::Const(n);
  } else if (ref == "true" || ref == "false") {
    v.kind = Val::kInt;
    v.expr = Expr::Const(ref == "true");
  }
  return v;
}

// A global's address as a value of a primitive kind (or a holder).
Val Extractor::GlobalVal(Ctx& c, const Val& g, Prim prim, const ir::Pos& pos) {
  return FieldVal(c, 0, g.name, prim, true, pos);
}

// The object slot that an operation's operand names, or -1.
int Extractor::Handle(Ctx& c, Frame& f, const ir::Op& op, Key key, Prim prim) {
  const std::string* ref = op.fields.Get(key);
  if (!ref) return -1;
  Val v = Lookup(c, f, *ref, op.pos);
  if (v.kind == Val::kGlobal) v = GlobalVal(c, v, prim, op.pos);
  if (v.kind == Val::kHandle || v.kind == Val::kCell) return v.slot;
  if (v.kind == Val::kElem) return ReadElem(c, v, op.pos);
  return -1;
}

// A new collection of n cells, made in the prologue (the array is taken
// as made once, at the start of the process): nil channels, or zero
// Mutexes, RWMutexes, WaitGroups or Onces.
Val Extractor::NewColl(Ctx& c, int n, Prim prim, const ir::Pos& pos) {
  Val v;
  v.kind = Val::kColl;
  for (int i = 0; i < n; i++) {
    Val cell;
    cell.kind = Val::kCell;
    cell.slot = NewSlot(c);
    if (IsValuePrim(prim)) {
      cell.kind = Val::kHandle;
      InstrKind k = prim == Prim::kMutex     ? InstrKind::kMakeMutex
                    : prim == Prim::kRWMutex ? InstrKind::kMakeRWMutex
                    : prim == Prim::kOnce    ? InstrKind::kMakeOnce
                                             : InstrKind::kMakeWaitGroup;
      c.prologue.push_back(Make(k, pos, cell.slot));
    } else {
      Instr in = Make(InstrKind::kAssign, pos, cell.slot);
      in.expr = Expr::Const(-1);
      c.prologue.push_back(std::move(in));
    }
    v.elems.push_back(cell);
  }
  return v;
}

int Extractor::ReadElem(Ctx& c, const Val& e, const ir::Pos& pos) {
  int tmp = NewSlot(c);
  c.nil_unknown.insert(tmp);  // an index past the cells reads nil
  Instr nil = Make(InstrKind::kAssign, pos, tmp);
  nil.expr = Expr::Const(-1);
  Emit(c, std::move(nil));
  ForElem(c, e, pos, [&](int i) {
    Instr in = Make(InstrKind::kAssign, pos, tmp);
    in.expr = Expr::Local(e.elems[i].slot);
    Emit(c, std::move(in));
  });
  return tmp;
}

void Extractor::WriteElem(Ctx& c, const Val& e, int val, const ir::Pos& pos) {
  ForElem(c, e, pos, [&](int i) {
    Instr in = Make(InstrKind::kAssign, pos, e.elems[i].slot);
    in.expr = Expr::Local(val);
    Emit(c, std::move(in));
  });
}

// Translates e into out (appending); -1 when it reads data the model does
// not track. params: free references of the entry point may become
// parameters (mandatory or optional).
int32_t Extractor::Translate(Ctx& c, Frame& f, const ir::Expr& e, Expr* out, bool params, bool mandatory) {
  if (e.IsAtom()) {
    Val v = Lookup(c, f, e.atom, ir::Pos{});
    if (v.kind == Val::kInt) return Splice(out, v.expr);
    if (v.kind == Val::kEntryParam && params) {
      return Push(out, {ExprOp::kParam, 0, ParamIndex(v.name, "parameter " + v.name, mandatory)});
    }
    return -1;
  }
  const std::string& head = e.items[0].atom;
  auto sub = [&](size_t i) { return Translate(c, f, e.items[i], out, params, mandatory); };
  if (nil_slots_ && (head == "==" || head == "!=") && e.items.size() == 3 &&
      ((e.items[1].IsAtom() && e.items[1].atom == "nil") || (e.items[2].IsAtom() && e.items[2].atom == "nil"))) {
    return TranslateNilTest(c, f, e, out);
  }
  if (head == "load" && e.items.size() == 2 && var_loads_) {
    int var = VarSlot(c, f, e.items[1], var_pos_);
    if (var >= 0) {
      int tmp = NewSlot(c);
      Instr in = Make(InstrKind::kLoadVar, var_pos_, tmp, var);
      if (const std::string* flag = FlagOf(e.items[1])) in.text = kFlagLoad + *flag;
      Emit(c, std::move(in));
      return Push(out, {ExprOp::kLocal, 0, tmp});
    }
  }
  if ((head == "len" || head == "cap") && e.items.size() == 2 && e.items[1].IsAtom()) {
    Val v = Lookup(c, f, e.items[1].atom, ir::Pos{});
    if (head == "len" && (v.kind == Val::kSized || (v.kind == Val::kColl && !v.expr.Unknown()))) {
      // The parameters in the length now shape concurrency as this use
      // does (they were made tentatively at the `sized` op).
      if (!params && HasParams(v.expr)) return -1;
      for (const ExprNode& n : v.expr.nodes) {
        if (n.op == ExprOp::kParam) ParamIndex(model_.params[n.index].name, "", mandatory);
      }
      return Splice(out, v.expr);
    }
    if (v.kind == Val::kEntryParam && params) {
      std::string name = fmt::format("{}({})", head, v.name);
      return Push(out, {ExprOp::kParam, 0, ParamIndex(name, name, mandatory)});
    }
    return -1;
  }
  if (head == "field" && e.items.size() == 3 && e.items[1].IsAtom()) {
    Val v = Lookup(c, f, e.items[1].atom, ir::Pos{});
    if (v.kind == Val::kEntryParam && params) {
      std::string name = v.name + "." + e.items[2].atom;
      return Push(out, {ExprOp::kParam, 0, ParamIndex(name, name, mandatory)});
    }
    return -1;
  }
  if (head == "load" && e.items.size() == 2 && e.items[1].IsAtom() && e.items[1].atom.starts_with("g:")) {
    if (!params) return -1;
    std::string name = e.items[1].atom.substr(2);
    size_t slash = name.rfind('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    return Push(out, {ExprOp::kParam, 0, ParamIndex(name, "package variable " + name, mandatory)});
  }
  if (head == "call" && e.items.size() == 2 && e.items[1].IsAtom() && e.items[1].atom.starts_with("fn:")) {
    if (!params) return -1;
    std::string id = e.items[1].atom.substr(3);
    std::string name = id;
    if (const ir::Extern* x = prog_.FindExtern(id)) name = x->name;
    if (const ir::Function* fn = prog_.FindFunction(id)) name = fn->name;
    size_t slash = name.rfind('/');
    if (slash != std::string::npos) name = name.substr(slash + 1);
    name += "()";
    return Push(out, {ExprOp::kParam, 0, ParamIndex(name, "the result of " + name, mandatory)});
  }
  if (head == "extract" && e.items.size() == 3 && e.items[1].IsAtom()) {
    Val v = Lookup(c, f, e.items[1].atom, ir::Pos{});
    int64_t i;
    if (v.kind == Val::kTuple && ParseInt64(e.items[2].atom, &i) && i >= 0 &&
        i < static_cast<int64_t>(v.elems.size()) && v.elems[i].kind == Val::kInt) {
      return Splice(out, v.elems[i].expr);
    }
    return -1;
  }
  static const std::map<std::string, ExprOp> kBinary = {
      {"+", ExprOp::kAdd}, {"-", ExprOp::kSub}, {"*", ExprOp::kMul}, {"/", ExprOp::kDiv},
      {"%", ExprOp::kMod}, {"<", ExprOp::kLt},  {"<=", ExprOp::kLe}, {">", ExprOp::kGt},
      {">=", ExprOp::kGe}, {"==", ExprOp::kEq}, {"!=", ExprOp::kNe}, {"min", ExprOp::kMin},
      {"max", ExprOp::kMax}};
  if (auto it = kBinary.find(head); it != kBinary.end() && e.items.size() >= 3) {
    int32_t l = sub(1);
    if (l < 0) return -1;
    for (size_t i = 2; i < e.items.size(); i++) {
      int32_t r = sub(i);
      if (r < 0) return -1;
      l = Push(out, {it->second, 0, 0, l, r});
    }
    return l;
  }
  if ((head == "neg" || head == "!") && e.items.size() == 2) {
    int32_t l = sub(1);
    if (l < 0) return -1;
    return Push(out, {head == "neg" ? ExprOp::kNeg : ExprOp::kNot, 0, 0, l});
  }
  return -1;
}

int32_t Extractor::TranslateNilTest(Ctx& c, Frame& f, const ir::Expr& e, Expr* out) {
  const bool eq = e.items[0].atom == "==";
  const bool lnil = e.items[1].IsAtom() && e.items[1].atom == "nil";
  const bool rnil = e.items[2].IsAtom() && e.items[2].atom == "nil";
  if (lnil && rnil) return Push(out, {ExprOp::kConst, eq ? 1 : 0});  // a variable go/ssa knows is nil
  int slot = NilTestSlot(c, f, e.items[lnil ? 2 : 1]);
  if (slot < 0) return -1;
  nil_slots_->push_back(slot);
  int32_t l = Push(out, {ExprOp::kLocal, 0, slot});
  int32_t r = Push(out, {ExprOp::kConst, -1});
  return Push(out, {eq ? ExprOp::kEq : ExprOp::kNe, 0, 0, l, r});
}

int Extractor::NilTestSlot(Ctx& c, Frame& f, const ir::Expr& x) {
  if (x.IsAtom()) {
    if (!IsNilableRef(f, x.atom)) return -1;
    Val v = Lookup(c, f, x.atom, ir::Pos{});
    return v.kind == Val::kHandle ? v.slot : -1;
  }
  if (x.items.size() != 2 || !x.items[0].IsAtom() || x.items[0].atom != "load") return -1;
  const ir::Expr& a = x.items[1];
  if (a.IsAtom()) {
    if (!IsNilableRef(f, a.atom)) return -1;
    Val v = Lookup(c, f, a.atom, ir::Pos{});
    return v.kind == Val::kCell ? v.slot : -1;
  }
  if (a.items.size() != 3 || !a.items[0].IsAtom() || a.items[0].atom != "field" || !a.items[2].IsAtom()) return -1;
  int h = HolderOf(c, f, a.items[1], ir::Pos{});
  if (h < 0) return -1;
  const Holder& hd = c.holders[Resolve(c, h)];
  auto it = hd.fields.find(a.items[2].atom);
  // The field's own op (before the test) made it, with its prim.
  if (it == hd.fields.end() || !IsNilable(it->second.prim)) return -1;
  return it->second.slot;
}

bool Extractor::IsNilable(Prim p) {
  return p == Prim::kChan || p == Prim::kTimer || p == Prim::kTicker || p == Prim::kCond || p == Prim::kContext;
}

bool Extractor::IsNilableRef(const Frame& f, const std::string& ref) {
  for (const auto* vars : {&f.fn->params, &f.fn->frees}) {
    for (const ir::Var& v : *vars) {
      if (v.ref == ref) return IsNilable(v.prim);
    }
  }
  for (const ir::Block& b : f.fn->blocks) {
    for (const ir::Op& op : b.ops) {
      const std::string* d = op.fields.Get(Key::kDst);
      if (!d || *d != ref) continue;
      switch (op.kind) {
        case OpKind::kMakeChan: case OpKind::kTimerAfter: case OpKind::kTimerTick: case OpKind::kTimerNew:
        case OpKind::kTimerNewTicker: case OpKind::kCondNew: case OpKind::kCtxRoot:
          return true;
        default: return IsNilable(PrimOf(op));
      }
    }
  }
  return false;
}

bool Extractor::NilUnknown(const Ctx& c, int slot) {
  std::vector<int> todo{slot};
  std::set<int> seen{slot};
  while (!todo.empty()) {
    int s = todo.back();
    todo.pop_back();
    if (c.nil_unknown.count(s)) return true;
    auto [lo, hi] = c.copies.equal_range(s);
    for (auto it = lo; it != hi; ++it) {
      if (seen.insert(it->second).second) todo.push_back(it->second);
    }
  }
  return false;
}

// e's text translated, or an unknown Expr.
Expr Extractor::TranslateText(Ctx& c, Frame& f, const std::string* text, bool params, bool mandatory) {
  Expr out;
  if (!text) return out;
  ir::Expr e;
  std::string err;
  if (!ir::ParseExpr(*text, &e, &err)) return out;
  if (Translate(c, f, e, &out, params, mandatory) < 0) out.nodes.clear();
  return out;
}

}  // namespace gordian::verify::extract_internal
