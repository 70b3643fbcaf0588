// This file owns model extraction (extract.h): the IR of one entry point,
// its callees inlined and its `go` statements turned into templates, as a
// Model. It translates the control-flow graph block by block into flat code
// with labels (a block's label is its first pc); SSA values that hold
// primitives are tracked as values of the extractor (Val) that name the
// model's local slots; struct fields of holders get slots of their own.
//
// Each template is built in a Ctx. A value a goroutine uses that its parent
// holds (a captured channel, a field of a captured struct) becomes an input
// of the goroutine's template, found lazily: the template's slot is added to
// its inputs and the parent's slot to the arguments of the kGo. At the end
// the inputs are renumbered to slots 0..k-1 and labels resolved to pcs.
#include "gordian/verify/extract.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "gordian/ir/expr.h"

namespace gordian::verify {
namespace {

using ir::OpKind;
using ir::Prim;
using ir::Key;

// What an SSA value of the function being inlined is, to the model.
struct Val {
  enum Kind : uint8_t {
    kNone,        // data the model does not track
    kHandle,      // slot holds an object handle (or the value itself)
    kCell,        // the address of a variable whose value is in slot
    kHolder,      // a struct with primitive fields (or a pointer to one)
    kClosure,     // a function value: fn with its bound values (elems)
    kTuple,       // elems
    kInt,         // an integer the model knows: expr
    kEntryParam,  // a parameter of the entry point (becomes a Parameter on use)
    kGlobal,      // the address of a package-level variable `name`
    kSized,       // a slice (untracked elements) whose length the model knows: expr
    kColl,        // a slice or array of channels: elems are its element cells
                  // (kCell), expr its length when known
    kElem,        // an element of a kColl (its address or value): elems are the
                  // collection's cells, expr the index (unknown: any element)
    kVar,         // the address of a tracked variable (a predicate's data): slot
                  // holds the handle of its kVar object
  } kind = kNone;
  int slot = -1;
  int holder = -1;
  std::string fn;  // kClosure: F<n>
  std::string name;
  std::vector<Val> elems;
  Expr expr;
  bool rlocker = false;  // RWMutex.RLocker(): Lock means RLock
};

bool IsValuePrim(Prim p) {
  return p == Prim::kMutex || p == Prim::kRWMutex || p == Prim::kWaitGroup || p == Prim::kOnce;
}

struct FieldSlot {
  int slot = -1;
  int holder = -1;
};

struct Holder {
  enum Origin : uint8_t { kLocal, kInput, kOutside } origin = kLocal;
  int parent = -1;    // kInput: the parent Ctx's holder
  int redirect = -1;  // a pointer variable that was stored a holder
  std::string name;
  std::map<std::string, FieldSlot> fields;
  std::map<std::string, int> vars;  // tracked bool/int fields: slot of the kVar object
};

struct Frame;

// One template being built.
struct Ctx {
  Ctx* parent = nullptr;
  int index = 0;  // in Model::templates
  std::vector<Instr> prologue, code;
  int num_slots = 0;
  std::vector<int> inputs;   // slots, in argument order
  std::vector<int> go_args;  // the parent's slots, parallel to inputs
  std::set<int> opaque;      // slots whose objects come from outside the model
  std::vector<Holder> holders;  // [0] is the package-level variables
  std::vector<int> label_pc;
  std::vector<std::string> stack;  // the functions being inlined (recursion)
  int last_mutex = -1;  // the slot of the mutex made or reached last
  std::vector<Frame*> frames;  // the functions being inlined, innermost last
  // t.Cleanup functions registered in this process (the entry's only):
  // each with its "registered" flag, run in reverse at the entry's end.
  std::vector<std::pair<int, Val>> cleanups;
  // While a go/ssa wrapper (a method value's $bound, a $thunk) is inlined:
  // the call site, which its operations are reported at (the wrapper's own
  // position is the method's declaration, e.g. in sync/mutex.go).
  const ir::Pos* wrapper_site = nullptr;
};

struct Frame;

struct LoopInfo {
  const ir::Loop* loop = nullptr;
  std::set<int> blocks;
  int var_slot = -1;
  bool counter = false;  // no loop variable: a counter from 0 stands in
  bool shaping = false;  // contains a go statement or a channel operation
  const ir::Op* exit_if = nullptr;
  // A shaping loop's iteration count (0 on entry, +1 per back edge): its
  // bound when the exit test reads data the model does not track. Unread
  // (and so dropped) otherwise.
  int guard_slot = -1;
};

struct Frame {
  const ir::Function* fn = nullptr;
  int depth = 0;
  bool entry_root = false;
  std::unordered_map<std::string, Val> vals;
  std::vector<int> block_label;
  int exit_label = -1;
  std::vector<Val> rets;
  std::vector<std::pair<int, const ir::Op*>> defers;  // flag slot, op
  std::map<const ir::Op*, int> defer_flags;  // each defer's "has run" slot
  std::vector<LoopInfo> loops;
  // A deferred call of this function calls recover(): a panic in its body
  // (or in what it inlines) goes to recover_label, which runs the deferred
  // calls and returns (made when first needed).
  bool recovers = false;
  int recover_label = -1;
  struct Stub {
    int label, from, to;
  };
  std::vector<Stub> stubs;
};

// The top-level commas of an ExprList ("0,(+ t 1)" -> two).
std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char ch : s) {
    if (ch == '(') depth++;
    if (ch == ')') depth--;
    if (ch == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += ch;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::vector<std::string> SplitRefs(const std::string* s) {
  std::vector<std::string> out;
  if (!s || s->empty()) return out;
  size_t i = 0;
  while (i <= s->size()) {
    size_t j = s->find(',', i);
    if (j == std::string::npos) j = s->size();
    out.push_back(s->substr(i, j - i));
    i = j + 1;
  }
  return out;
}

bool ParseInt64(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  int64_t x = 0;
  for (; i < s.size(); i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (x > (int64_t{1} << 55)) return false;
    x = x * 10 + (s[i] - '0');
  }
  *v = s[0] == '-' ? -x : x;
  return true;
}

// Appends src's nodes to dst; returns the index of src's root in dst.
int32_t Splice(Expr* dst, const Expr& src) {
  int32_t base = static_cast<int32_t>(dst->nodes.size());
  for (ExprNode n : src.nodes) {
    if (n.lhs >= 0) n.lhs += base;
    if (n.rhs >= 0) n.rhs += base;
    dst->nodes.push_back(n);
  }
  return static_cast<int32_t>(dst->nodes.size()) - 1;
}

int32_t Push(Expr* e, ExprNode n) {
  e->nodes.push_back(n);
  return static_cast<int32_t>(e->nodes.size()) - 1;
}

bool HasParams(const Expr& e) {
  return std::any_of(e.nodes.begin(), e.nodes.end(), [](const ExprNode& n) { return n.op == ExprOp::kParam; });
}

bool HasLocals(const Expr& e) {
  for (const ExprNode& n : e.nodes) {
    if (n.op == ExprOp::kLocal) return true;
  }
  return false;
}

// Calls slot(int&) on every operand of in that is a local slot and
// target(int&) on every operand that is a code label.
template <typename S, typename T>
void ForOperands(Instr& in, S slot, T target) {
  for (ExprNode& n : in.expr.nodes) {
    if (n.op == ExprOp::kLocal) slot(n.index);
  }
  auto opt = [&](int32_t& s) {
    if (s >= 0) slot(s);
  };
  switch (in.kind) {
    case InstrKind::kJump: target(in.a); break;
    case InstrKind::kBranch: target(in.a); target(in.b); break;
    case InstrKind::kChoice:
      for (int32_t& t : in.targets) target(t);
      break;
    case InstrKind::kMakeCond: case InstrKind::kCtxDone: case InstrKind::kTryLock: case InstrKind::kLoadVar:
      slot(in.a);
      slot(in.b);
      break;
    case InstrKind::kMakeContext: case InstrKind::kMakeTimer: case InstrKind::kRecv:
      slot(in.a);
      opt(in.b);
      break;
    case InstrKind::kSelect:
      if (in.a >= 0) target(in.a);
      for (SelectCase& sc : in.cases) {
        slot(sc.chan);
        opt(sc.ok);
        target(sc.target);
      }
      break;
    case InstrKind::kOnceBegin: slot(in.a); target(in.b); break;
    case InstrKind::kGo:
      for (int32_t& s : in.args) slot(s);
      break;
    case InstrKind::kNop: case InstrKind::kPanic: case InstrKind::kEnd: case InstrKind::kCall: break;
    default: slot(in.a); break;
  }
  if (in.recover >= 0) target(in.recover);
}

// The variables Cond predicate loops test (`for !g.ready { g.c.Wait() }`):
// the model tracks these as shared kVar objects, so that a waiter woken
// after the predicate became true leaves its loop; every other bool or
// integer stays data the model does not track. Keyed by name, since one
// program's predicate may be another function's store: struct field names,
// captured locals' names, "g:" + a package variable.
struct PredicateVars {
  std::set<std::string> fields, names;
};

void CollectPredicateVars(const ir::Function& fn, const ir::Expr& e, PredicateVars* out) {
  if (e.IsAtom()) return;
  if (e.items.size() == 2 && e.items[0].IsAtom() && e.items[0].atom == "load") {
    const ir::Expr& a = e.items[1];
    if (a.IsAtom()) {
      const std::string& r = a.atom;
      if (r.starts_with("g:")) out->names.insert(r);
      for (const ir::Var& v : fn.frees) {
        if (v.ref == r && !v.name.empty()) out->names.insert(v.name);
      }
      for (const ir::Block& b : fn.blocks) {
        for (const ir::Op& op : b.ops) {
          const std::string* d = op.fields.Get(Key::kDst);
          const std::string* n = op.fields.Get(Key::kName);
          if (op.kind == OpKind::kVarNew && d && *d == r && n) out->names.insert(*n);
        }
      }
      return;
    }
    if (a.items.size() == 3 && a.items[0].IsAtom() && a.items[0].atom == "field" && a.items[2].IsAtom()) {
      out->fields.insert(a.items[2].atom);
    }
  }
  for (const ir::Expr& sub : e.items) CollectPredicateVars(fn, sub, out);
}

PredicateVars FindPredicateVars(const ir::Program& prog) {
  PredicateVars out;
  for (const ir::Function& fn : prog.functions) {
    for (const ir::Loop& l : fn.loops) {
      bool waits = false;
      for (int b : l.blocks) {
        if (b < 0 || b >= static_cast<int>(fn.blocks.size())) continue;
        for (const ir::Op& op : fn.blocks[b].ops) waits = waits || op.kind == OpKind::kCondWait;
      }
      if (!waits) continue;
      for (int b : l.blocks) {
        if (b < 0 || b >= static_cast<int>(fn.blocks.size())) continue;
        for (const ir::Op& op : fn.blocks[b].ops) {
          const std::string* cond = op.fields.Get(Key::kCond);
          ir::Expr e;
          std::string err;
          if (op.kind == OpKind::kIf && cond && ir::ParseExpr(*cond, &e, &err)) CollectPredicateVars(fn, e, &out);
        }
      }
    }
  }
  return out;
}

class Extractor {
 public:
  Extractor(const ir::Program& prog, const ExtractOptions& opts, const PredicateVars& preds)
      : prog_(prog), opts_(opts), preds_(preds) {}

  Model Run(const ir::Function& entry) {
    model_.entry = entry.name;
    if (entry.kind == "test") {
      size_t dot = entry.name.rfind('.');
      model_.test = dot == std::string::npos ? entry.name : entry.name.substr(dot + 1);
    }
    model_.pos = entry.pos;
    model_.files = prog_.files;
    Ctx root;
    root.index = NewTemplate(entry.name, entry.pos);
    root.holders.push_back(Holder{Holder::kOutside, -1, -1, "", {}, {}});
    Frame f;
    f.fn = &entry;
    f.entry_root = true;
    for (const ir::Var& p : entry.params) f.vals[p.ref] = EntryParamVal(root, p);
    for (const ir::Var& fr : entry.frees) f.vals[fr.ref] = Val{};
    BuildTemplate(root, f, -1);
    DropTentative();
    model_.notes.assign(notes_.begin(), notes_.end());
    return std::move(model_);
  }

 private:
  const ir::Program& prog_;
  const ExtractOptions& opts_;
  const PredicateVars& preds_;
  // Set while translating a branch's condition or a stored value: a read of
  // a tracked variable becomes a load-var into a fresh slot (at var_pos_).
  bool var_loads_ = false;
  ir::Pos var_pos_;
  Model model_;
  std::set<std::string> notes_;
  size_t total_instrs_ = 0;
  std::vector<bool> shaping_;  // per parameter: read by a capacity, delta or loop bound
  bool tentative_ = false;

  // A test that read a parameter nothing else that shapes concurrency
  // reads becomes unknown (either branch: data the model does not track),
  // and such parameters are dropped.
  void DropTentative() {
    std::vector<int> remap(model_.params.size(), -1);
    std::vector<Parameter> kept;
    for (size_t i = 0; i < model_.params.size(); i++) {
      if (!shaping_[i]) continue;
      remap[i] = static_cast<int>(kept.size());
      kept.push_back(model_.params[i]);
    }
    for (Template& t : model_.templates) {
      for (Instr& in : t.code) {
        bool drop = false;
        for (ExprNode& n : in.expr.nodes) {
          if (n.op != ExprOp::kParam) continue;
          if (remap[n.index] < 0) {
            drop = true;
          } else {
            n.index = remap[n.index];
          }
        }
        if (drop) in.expr.nodes.clear();
      }
    }
    model_.params = std::move(kept);
  }

  void Note(const ir::Pos& pos, const std::string& what) {
    std::string where = prog_.PosString(pos);
    notes_.insert(where.empty() ? what : where + ": " + what);
  }

  int NewTemplate(const std::string& name, const ir::Pos& pos) {
    Template t;
    t.name = name;
    t.pos = pos;
    model_.templates.push_back(std::move(t));
    return static_cast<int>(model_.templates.size()) - 1;
  }

  static int NewSlot(Ctx& c) { return c.num_slots++; }
  static int NewLabel(Ctx& c) {
    c.label_pc.push_back(-1);
    return static_cast<int>(c.label_pc.size()) - 1;
  }
  static void Place(Ctx& c, int label) { c.label_pc[label] = static_cast<int>(c.code.size()); }

  void Emit(Ctx& c, Instr in) {
    if (c.wrapper_site) in.pos = *c.wrapper_site;
    if (in.recover < 0 && MayPanic(in.kind)) in.recover = RecoverLabel(c);
    c.code.push_back(std::move(in));
    total_instrs_++;
  }
  static bool MayPanic(InstrKind k) {
    switch (k) {
      case InstrKind::kNop: case InstrKind::kJump: case InstrKind::kBranch: case InstrKind::kChoice:
      case InstrKind::kAssign: case InstrKind::kEnd: case InstrKind::kGo: case InstrKind::kMakeVar:
      case InstrKind::kLoadVar: case InstrKind::kStoreVar:
        return false;
      default: return true;
    }
  }

  // The landing pad of the innermost function being inlined whose deferred
  // call recovers, or -1.
  int RecoverLabel(Ctx& c) {
    for (auto it = c.frames.rbegin(); it != c.frames.rend(); ++it) {
      Frame& fr = **it;
      if (!fr.recovers) continue;
      if (fr.recover_label < 0) fr.recover_label = NewLabel(c);
      return fr.recover_label;
    }
    return -1;
  }

  // fn defers a call of a function that calls recover().
  bool Recovers(const ir::Function& fn) const {
    for (const ir::Block& b : fn.blocks) {
      for (const ir::Op& op : b.ops) {
        if (op.kind != OpKind::kDefer) continue;
        const std::string* callee = op.fields.Get(Key::kCallee);
        const ir::Function* d = callee ? prog_.FindFunction(*callee) : nullptr;
        if (!d) continue;
        for (const ir::Block& db : d->blocks) {
          for (const ir::Op& dop : db.ops) {
            const std::string* builtin = dop.fields.Get(Key::kBuiltin);
            if (dop.kind == OpKind::kCall && builtin && *builtin == "recover") return true;
          }
        }
      }
    }
    return false;
  }

  static Instr Make(InstrKind k, const ir::Pos& pos, int a = -1, int b = -1, int cc = -1) {
    Instr in;
    in.kind = k;
    in.pos = pos;
    in.a = a;
    in.b = b;
    in.c = cc;
    in.text = std::string(InstrKindName(k));
    return in;
  }

  // ---- parameters

  // tentative_: the parameter is read by a plain test (not a capacity,
  // delta or loop bound); it stays a parameter only if something that
  // shapes concurrency reads it too (see DropTentative).
  int ParamIndex(const std::string& name, const std::string& source, bool mandatory) {
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

  Val EntryParamVal(Ctx& c, const ir::Var& p) {
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
  void Outside(Ctx& c, int slot, Prim prim, const std::string& name, const ir::Pos& pos) {
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

  // ---- holders and fields

  static int Resolve(Ctx& c, int h) {
    for (int i = 0; i < 8 && h >= 0 && c.holders[h].redirect >= 0; i++) h = c.holders[h].redirect;
    return h;
  }

  int NewHolder(Ctx& c, Holder::Origin origin, int parent, const std::string& name) {
    c.holders.push_back(Holder{origin, parent, -1, name, {}, {}});
    return static_cast<int>(c.holders.size()) - 1;
  }

  void AddInput(Ctx& c, int slot, int parent_slot) {
    c.inputs.push_back(slot);
    c.go_args.push_back(parent_slot);
    if (c.parent->opaque.count(parent_slot)) c.opaque.insert(slot);
  }

  // The field `name` of holder h: a holder, or the slot of the field.
  FieldSlot Field(Ctx& c, int h, const std::string& name, Prim prim, const ir::Pos& pos) {
    h = Resolve(c, h);
    auto it = c.holders[h].fields.find(name);
    if (it != c.holders[h].fields.end()) return it->second;
    FieldSlot fs;
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
    c.holders[Resolve(c, h)].fields[name] = fs;
    return fs;
  }

  // The slot of tracked variable `name` of holder h (a bool or integer
  // field; holder 0's are package variables): the kVar object is made in
  // the prologue of the process that made the holder, zero for a struct it
  // made, any value for one from outside the model.
  int VarField(Ctx& c, int h, const std::string& name, const ir::Pos& pos) {
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

  int HolderOf(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos) {
    if (e.IsAtom()) {
      Val v = Lookup(c, f, e.atom, pos);
      if (v.kind == Val::kGlobal) v = GlobalVal(c, v, Prim::kHolder, pos);
      return v.kind == Val::kHolder ? v.holder : -1;
    }
    if (e.items.size() == 2 && e.items[0].IsAtom() && e.items[0].atom == "load") return HolderOf(c, f, e.items[1], pos);
    return -1;
  }

  // The slot of the tracked variable at address expression e, or -1.
  int VarSlot(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos) {
    if (e.IsAtom()) {
      Val v = Lookup(c, f, e.atom, pos);
      if (v.kind == Val::kVar) return v.slot;
      if (v.kind == Val::kGlobal && preds_.names.count("g:" + v.name)) return VarField(c, 0, "g:" + v.name, pos);
      return -1;
    }
    if (e.items.size() == 3 && e.items[0].IsAtom() && e.items[0].atom == "field" && e.items[2].IsAtom() &&
        preds_.fields.count(e.items[2].atom)) {
      int h = HolderOf(c, f, e.items[1], pos);
      if (h >= 0) return VarField(c, h, e.items[2].atom, pos);
    }
    return -1;
  }

  Val FieldVal(Ctx& c, int h, const std::string& name, Prim prim, bool addr, const ir::Pos& pos) {
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

  // ---- values

  Val Lookup(Ctx& c, Frame& f, const std::string& ref, const ir::Pos& pos) {
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
  Val GlobalVal(Ctx& c, const Val& g, Prim prim, const ir::Pos& pos) {
    return FieldVal(c, 0, g.name, prim, true, pos);
  }

  // The object slot that an operation's operand names, or -1.
  int Handle(Ctx& c, Frame& f, const ir::Op& op, Key key, Prim prim) {
    const std::string* ref = op.fields.Get(key);
    if (!ref) return -1;
    Val v = Lookup(c, f, *ref, op.pos);
    if (v.kind == Val::kGlobal) v = GlobalVal(c, v, prim, op.pos);
    if (v.kind == Val::kHandle || v.kind == Val::kCell) return v.slot;
    if (v.kind == Val::kElem) return ReadElem(c, v, op.pos);
    return -1;
  }

  // ---- collections of channels

  // Cells a collection the model has not seen made gets: its known
  // length when small, else this bound (an index past it reads nil).
  static constexpr int kMaxElems = 5;

  // A new collection of n cells, made in the prologue (the array is taken
  // as made once, at the start of the process): nil channels, or zero
  // Mutexes, RWMutexes, WaitGroups or Onces.
  Val NewColl(Ctx& c, int n, Prim prim, const ir::Pos& pos) {
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

  // For each cell the index may name, emit(i) on its own path; paths join
  // after. A constant index is one path; an unknown one any cell.
  template <typename F>
  void ForElem(Ctx& c, const Val& e, const ir::Pos& pos, F emit) {
    const int n = static_cast<int>(e.elems.size());
    if (n == 0) return;
    if (e.expr.nodes.size() == 1 && e.expr.nodes[0].op == ExprOp::kConst) {
      int64_t i = e.expr.nodes[0].value;
      if (i >= 0 && i < n) emit(static_cast<int>(i));
      return;
    }
    int join = NewLabel(c);
    std::vector<int> labels;
    for (int i = 0; i < n; i++) labels.push_back(NewLabel(c));
    if (e.expr.Unknown()) {
      Instr ch = Make(InstrKind::kChoice, pos);
      ch.targets = labels;
      Emit(c, std::move(ch));
    } else {
      for (int i = 0; i < n; i++) {
        int next = NewLabel(c);
        Instr br = Make(InstrKind::kBranch, pos, labels[i], next);
        br.expr = e.expr;
        int32_t l = static_cast<int32_t>(br.expr.nodes.size()) - 1;
        int32_t k = Push(&br.expr, {ExprOp::kConst, i});
        Push(&br.expr, {ExprOp::kEq, 0, 0, l, k});
        Emit(c, std::move(br));
        Place(c, next);
      }
      Emit(c, Make(InstrKind::kJump, pos, join));  // past the cells: nil
    }
    for (int i = 0; i < n; i++) {
      Place(c, labels[i]);
      emit(i);
      Emit(c, Make(InstrKind::kJump, pos, join));
    }
    Place(c, join);
  }

  int ReadElem(Ctx& c, const Val& e, const ir::Pos& pos) {
    int tmp = NewSlot(c);
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

  void WriteElem(Ctx& c, const Val& e, int val, const ir::Pos& pos) {
    ForElem(c, e, pos, [&](int i) {
      Instr in = Make(InstrKind::kAssign, pos, e.elems[i].slot);
      in.expr = Expr::Local(val);
      Emit(c, std::move(in));
    });
  }

  void Define(Frame& f, const ir::Op& op, Val v) {
    if (const std::string* d = op.fields.Get(Key::kDst)) f.vals[*d] = std::move(v);
  }

  // ---- expressions

  // Translates e into out (appending); -1 when it reads data the model does
  // not track. params: free references of the entry point may become
  // parameters (mandatory or optional).
  int32_t Translate(Ctx& c, Frame& f, const ir::Expr& e, Expr* out, bool params, bool mandatory) {
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
    if (head == "load" && e.items.size() == 2 && var_loads_) {
      int var = VarSlot(c, f, e.items[1], var_pos_);
      if (var >= 0) {
        int tmp = NewSlot(c);
        Instr in = Make(InstrKind::kLoadVar, var_pos_, tmp, var);
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

  // e's text translated, or an unknown Expr.
  Expr TranslateText(Ctx& c, Frame& f, const std::string* text, bool params, bool mandatory) {
    Expr out;
    if (!text) return out;
    ir::Expr e;
    std::string err;
    if (!ir::ParseExpr(*text, &e, &err)) return out;
    if (Translate(c, f, e, &out, params, mandatory) < 0) out.nodes.clear();
    return out;
  }

  // ---- functions

  // Builds the template of ctx from frame f (its root function); wg >= 0:
  // a WaitGroup slot to call Done on at the end (WaitGroup.Go).
  void BuildTemplate(Ctx& c, Frame& f, int wg) {
    f.exit_label = NewLabel(c);
    c.stack.push_back(f.fn->id);
    EmitFunction(c, f);
    Place(c, f.exit_label);
    RunCleanups(c, f);
    if (wg >= 0) {
      Instr in = Make(InstrKind::kWgAdd, f.fn->pos, wg);
      in.expr = Expr::Const(-1);
      Emit(c, std::move(in));
    }
    Emit(c, Make(InstrKind::kEnd, f.fn->pos));
    Finish(c);
  }

  void Finish(Ctx& c) {
    std::vector<int> remap(c.num_slots, -1);
    int next = 0;
    for (int s : c.inputs) remap[s] = next++;
    for (int s = 0; s < c.num_slots; s++) {
      if (remap[s] < 0) remap[s] = next++;
    }
    const int shift = static_cast<int>(c.prologue.size());
    std::vector<Instr> code = std::move(c.prologue);
    for (Instr& in : c.code) code.push_back(std::move(in));
    for (size_t pc = 0; pc < code.size(); pc++) {
      bool prologue = static_cast<int>(pc) < shift;
      ForOperands(
          code[pc], [&](int32_t& s) { s = remap[s]; },
          [&](int32_t& t) {
            if (!prologue) t = c.label_pc[t] < 0 ? 0 : c.label_pc[t] + shift;
          });
    }
    DropDeadAssignments(&code);
    Template& t = model_.templates[c.index];
    t.num_locals = c.num_slots;
    t.code = std::move(code);
  }

  // An assignment to a slot nothing else reads becomes a nop: a loop
  // counter whose test the model cannot evaluate would otherwise count
  // for ever and make every iteration a new state.
  static void DropDeadAssignments(std::vector<Instr>* code) {
    std::unordered_set<int32_t> read;
    for (Instr& in : *code) {
      if (in.kind == InstrKind::kAssign) {
        for (const ExprNode& n : in.expr.nodes) {
          if (n.op == ExprOp::kLocal && n.index != in.a) read.insert(n.index);
        }
        continue;
      }
      ForOperands(in, [&](int32_t& s) { read.insert(s); }, [](int32_t&) {});
    }
    for (Instr& in : *code) {
      if (in.kind == InstrKind::kAssign && !read.count(in.a)) {
        in.kind = InstrKind::kNop;
        in.a = -1;
        in.expr.nodes.clear();
      }
    }
  }

  void PrepareLoops(Ctx& c, Frame& f) {
    for (const ir::Loop& l : f.fn->loops) {
      LoopInfo li;
      li.loop = &l;
      li.blocks.insert(l.blocks.begin(), l.blocks.end());
      bool waits = false;  // a Cond predicate loop: its test reads tracked variables
      for (int b : l.blocks) {
        if (b < 0 || b >= static_cast<int>(f.fn->blocks.size())) continue;
        for (const ir::Op& op : f.fn->blocks[b].ops) {
          ir::OpCategory cat = ir::CategoryOf(op.kind);
          // A loop around a go statement, a channel or a sync operation
          // shapes concurrency: its bound is a mandatory parameter.
          if (cat == ir::OpCategory::Chan || cat == ir::OpCategory::Sync || op.kind == OpKind::kGo) {
            li.shaping = true;
          }
          waits = waits || op.kind == OpKind::kCondWait;
          if (op.kind == OpKind::kIf && !li.exit_if) {
            const ir::Block& blk = f.fn->blocks[b];
            for (int s : blk.succs) {
              if (!li.blocks.count(s)) li.exit_if = &op;
            }
          }
        }
      }
      const std::string* var = l.fields.Get(Key::kVar);
      if (var && !var->empty()) {
        li.var_slot = NewSlot(c);
        Val v;
        v.kind = Val::kInt;
        v.expr = Expr::Local(li.var_slot);
        f.vals[*var] = v;
      } else if (!waits && li.exit_if && l.fields.Get(Key::kCond)) {
        const std::string& cond = *l.fields.Get(Key::kCond);
        if (cond.starts_with("(< ") || cond.starts_with("(<= ")) {
          li.var_slot = NewSlot(c);
          li.counter = true;
          Note(l.pos, "a loop without a known variable (its test reads memory): counted from 0 by 1");
        }
      }
      if (li.shaping) li.guard_slot = NewSlot(c);
      f.loops.push_back(std::move(li));
    }
  }

  void EmitFunction(Ctx& c, Frame& f) {
    const ir::Function& fn = *f.fn;
    if (fn.blocks.empty()) return;
    f.block_label.resize(fn.blocks.size());
    for (int& l : f.block_label) l = NewLabel(c);
    PrepareLoops(c, f);
    // Phis of primitives get their slot up front: the edges assign it.
    for (const ir::Block& b : fn.blocks) {
      for (const ir::Op& op : b.ops) {
        if (op.kind != OpKind::kPhi) continue;
        const std::string* prim = op.fields.Get(Key::kPrim);
        Prim p = Prim::kNone;
        if (prim) ir::ParsePrim(*prim, &p);
        if (p == Prim::kHolder) continue;
        Val v;
        v.kind = Val::kHandle;
        v.slot = NewSlot(c);
        Define(f, op, v);
      }
    }
    // A defer's flag is 0 until its statement runs (set here, at the top
    // of the body, so that an inlined body entered again starts clean).
    for (const ir::Block& b : fn.blocks) {
      for (const ir::Op& op : b.ops) {
        const std::string* via = op.fields.Get(Key::kVia);
        if (op.kind != OpKind::kDefer && !(via && *via == "defer")) continue;
        int flag = NewSlot(c);
        f.defer_flags[&op] = flag;
        Instr zero = Make(InstrKind::kAssign, fn.pos, flag);
        zero.expr = Expr::Const(0);
        Emit(c, std::move(zero));
      }
    }
    f.recovers = Recovers(fn);
    c.frames.push_back(&f);
    for (const ir::Block& b : fn.blocks) {
      Place(c, f.block_label[b.index]);
      bool ended = false;
      for (const ir::Op& op : b.ops) {
        if (total_instrs_ > static_cast<size_t>(opts_.max_instructions)) {
          Note(op.pos, fmt::format("the model reached {} instructions: the rest of {} is cut",
                                   opts_.max_instructions, fn.name));
          Emit(c, Make(InstrKind::kJump, op.pos, f.exit_label));
          ended = true;
          break;
        }
        if (Op(c, f, b, op)) {
          ended = true;
          break;
        }
      }
      if (ended) continue;
      if (b.succs.size() == 1) {
        Emit(c, Make(InstrKind::kJump, fn.pos, EdgeLabel(c, f, b.index, b.succs[0])));
      } else if (b.succs.empty()) {
        Emit(c, Make(InstrKind::kJump, fn.pos, f.exit_label));
      } else {
        Instr ch = Make(InstrKind::kChoice, fn.pos);
        for (int s : b.succs) ch.targets.push_back(EdgeLabel(c, f, b.index, s));
        Emit(c, std::move(ch));
      }
    }
    // The edge stubs: phi assignments and loop variables.
    for (const Frame::Stub& st : f.stubs) {
      Place(c, st.label);
      EdgeActions(c, f, st.from, st.to);
      Emit(c, Make(InstrKind::kJump, fn.pos, f.block_label[st.to]));
    }
    c.frames.pop_back();
    if (f.recover_label >= 0) {
      // The landing pad: a recovered panic runs the deferred calls that
      // were registered (the recovering one among them) and returns.
      Place(c, f.recover_label);
      RunDefers(c, f, fn.pos);
      Emit(c, Make(InstrKind::kJump, fn.pos, f.exit_label));
    }
  }

  bool EdgeHasActions(Frame& f, int from, int to) {
    const ir::Block& b = f.fn->blocks[to];
    for (const ir::Op& op : b.ops) {
      if (op.kind == OpKind::kPhi) return true;
    }
    for (const LoopInfo& li : f.loops) {
      if (li.loop->header == to && (li.var_slot >= 0 || li.guard_slot >= 0)) return true;
    }
    (void)from;
    return false;
  }

  int EdgeLabel(Ctx& c, Frame& f, int from, int to) {
    if (to < 0 || to >= static_cast<int>(f.fn->blocks.size())) return f.exit_label;
    if (!EdgeHasActions(f, from, to)) return f.block_label[to];
    int label = NewLabel(c);
    f.stubs.push_back({label, from, to});
    return label;
  }

  void EdgeActions(Ctx& c, Frame& f, int from, int to) {
    const ir::Block& b = f.fn->blocks[to];
    for (const ir::Op& op : b.ops) {
      if (op.kind != OpKind::kPhi) continue;
      const std::string* dst = op.fields.Get(Key::kDst);
      auto it = dst ? f.vals.find(*dst) : f.vals.end();
      std::vector<std::string> edges = SplitRefs(op.fields.Get(Key::kEdges));
      for (size_t i = 0; i < b.preds.size() && i < edges.size(); i++) {
        if (b.preds[i] != from) continue;
        Val v = Lookup(c, f, edges[i], op.pos);
        if (it != f.vals.end() && it->second.kind == Val::kHandle &&
            (v.kind == Val::kHandle || v.kind == Val::kCell)) {
          Instr in = Make(InstrKind::kAssign, op.pos, it->second.slot);
          in.expr = Expr::Local(v.slot);
          Emit(c, std::move(in));
        }
      }
    }
    for (LoopInfo& li : f.loops) {
      if (li.loop->header != to) continue;
      bool back = li.blocks.count(from) > 0;
      if (li.guard_slot >= 0) {
        Instr in = Make(InstrKind::kAssign, li.loop->pos, li.guard_slot);
        if (back) {
          int32_t l = Push(&in.expr, {ExprOp::kLocal, 0, li.guard_slot});
          int32_t one = Push(&in.expr, {ExprOp::kConst, 1});
          Push(&in.expr, {ExprOp::kAdd, 0, 0, l, one});
        } else {
          in.expr = Expr::Const(0);
        }
        Emit(c, std::move(in));
      }
      if (li.var_slot < 0) continue;
      Expr e;
      if (li.counter) {
        if (back) {
          int32_t l = Push(&e, {ExprOp::kLocal, 0, li.var_slot});
          int32_t one = Push(&e, {ExprOp::kConst, 1});
          Push(&e, {ExprOp::kAdd, 0, 0, l, one});
        } else {
          e = Expr::Const(0);
        }
      } else {
        const std::string* list = li.loop->fields.Get(back ? Key::kStep : Key::kInit);
        std::vector<std::string> items = list ? SplitList(*list) : std::vector<std::string>{};
        if (!items.empty()) e = TranslateText(c, f, &items[0], true, li.shaping);
      }
      Instr in = Make(InstrKind::kAssign, li.loop->pos, li.var_slot);
      in.expr = std::move(e);
      Emit(c, std::move(in));
    }
  }

  // The loop whose exit test op is, or nullptr.
  LoopInfo* ExitLoop(Frame& f, const ir::Op& op) {
    for (LoopInfo& li : f.loops) {
      if (li.exit_if == &op) return &li;
    }
    return nullptr;
  }

  // Emits the model of op; true when it ended the block (a jump or return).
  bool Op(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
    const ir::Pos& pos = op.pos;
    auto prim_of = [&]() {
      Prim p = Prim::kNone;
      if (const std::string* s = op.fields.Get(Key::kPrim)) ir::ParsePrim(*s, &p);
      return p;
    };
    // Lock, Unlock and TryLock serve a Mutex and an RWMutex alike; the op's
    // prim says which, so that a lock first met here (a package-level
    // RWMutex, made when first used) is made as what it is.
    auto lock_kind = [&]() { return prim_of() == Prim::kRWMutex ? Prim::kRWMutex : Prim::kMutex; };
    const std::string* via = op.fields.Get(Key::kVia);
    if (via && *via == "defer") {
      DeferPoint(c, f, b, op);
      return false;
    }
    if (via && *via == "go") {
      Note(pos, fmt::format("`go` of {} directly is not modelled", ir::OpKindName(op.kind)));
      return false;
    }
    auto on = [&](Prim p) { return Handle(c, f, op, Key::kOn, p); };
    auto simple = [&](InstrKind k, int slot) {
      if (slot < 0) {
        Note(pos, fmt::format("{} on a value the model does not track: left out", ir::OpKindName(op.kind)));
        return;
      }
      if (c.opaque.count(slot)) return;
      Emit(c, Make(k, pos, slot));
    };
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
      case OpKind::kSend: simple(InstrKind::kSend, Handle(c, f, op, Key::kCh, Prim::kChan)); return false;
      case OpKind::kClose: simple(InstrKind::kClose, Handle(c, f, op, Key::kCh, Prim::kChan)); return false;
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
      case OpKind::kLock: case OpKind::kUnlock: {
        const std::string* ref = op.fields.Get(Key::kOn);
        bool r = ref && Lookup(c, f, *ref, pos).rlocker;
        InstrKind k = op.kind == OpKind::kLock ? (r ? InstrKind::kRLock : InstrKind::kLock)
                                               : (r ? InstrKind::kRUnlock : InstrKind::kUnlock);
        simple(k, on(lock_kind()));
        return false;
      }
      case OpKind::kRLock: simple(InstrKind::kRLock, on(Prim::kRWMutex)); return false;
      case OpKind::kRUnlock: simple(InstrKind::kRUnlock, on(Prim::kRWMutex)); return false;
      case OpKind::kTryLock: case OpKind::kTryRLock: {
        int m = on(op.kind == OpKind::kTryLock ? lock_kind() : Prim::kRWMutex);
        Val v;
        if (m >= 0 && !c.opaque.count(m)) {
          int ok = NewSlot(c);
          Emit(c, Make(InstrKind::kTryLock, pos, m, ok, op.kind == OpKind::kTryRLock ? 1 : -1));
          v.kind = Val::kInt;
          v.expr = Expr::Local(ok);
        }
        Define(f, op, v);
        return false;
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
        return false;
      }
      case OpKind::kWgAdd: {
        int wg = on(Prim::kWaitGroup);
        if (wg < 0 || c.opaque.count(wg)) {
          simple(InstrKind::kWgAdd, wg);
          return false;
        }
        Instr in = Make(InstrKind::kWgAdd, pos, wg);
        in.expr = TranslateText(c, f, op.fields.Get(Key::kDelta), true, true);
        Emit(c, std::move(in));
        return false;
      }
      case OpKind::kWgDone: {
        int wg = on(Prim::kWaitGroup);
        if (wg < 0 || c.opaque.count(wg)) {
          simple(InstrKind::kWgAdd, wg);
          return false;
        }
        Instr in = Make(InstrKind::kWgAdd, pos, wg);
        in.expr = Expr::Const(-1);
        in.text = "Done";
        Emit(c, std::move(in));
        return false;
      }
      case OpKind::kWgWait: simple(InstrKind::kWgWait, on(Prim::kWaitGroup)); return false;
      case OpKind::kWgGo: {
        int wg = on(Prim::kWaitGroup);
        if (wg < 0 || c.opaque.count(wg)) {
          simple(InstrKind::kWgAdd, wg);
          return false;
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
          return false;
        }
        Spawn(c, f, fnv.fn, {}, fnv.elems, pos, wg);
        return false;
      }
      case OpKind::kOnceDo: {
        int once = on(Prim::kOnce);
        Val fnv = Lookup(c, f, *op.fields.Get(Key::kFn), pos);
        if (once < 0 || c.opaque.count(once)) {
          Note(pos, "Once.Do on a Once the model does not track: the function is run every time");
          if (fnv.kind == Val::kClosure) InlineCall(c, f, fnv.fn, {}, fnv.elems, nullptr, pos);
          return false;
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
        return false;
      }
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
        return false;
      }
      case OpKind::kCondWait: simple(InstrKind::kCondWait, on(Prim::kCond)); return false;
      case OpKind::kCondSignal: simple(InstrKind::kCondSignal, on(Prim::kCond)); return false;
      case OpKind::kCondBroadcast: simple(InstrKind::kCondBroadcast, on(Prim::kCond)); return false;
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
        int ctx = on(Prim::kContext);
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
      case OpKind::kCancel: simple(InstrKind::kCancel, on(Prim::kCancel)); return false;
      case OpKind::kCtxAfterFunc: case OpKind::kTimerAfterFunc:
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
        int t = on(Prim::kTimer);
        if (t >= 0 && !c.opaque.count(t)) Emit(c, Make(InstrKind::kStopTimer, pos, t));
        Define(f, op, Val{});
        return false;
      }
      case OpKind::kTimerReset:
        Note(pos, "Timer.Reset: the timer is taken as firing at most as before");
        Define(f, op, Val{});
        return false;
      case OpKind::kSleep: Emit(c, Make(InstrKind::kNop, pos)); return false;
      case OpKind::kCall: Call(c, f, op); return false;
      case OpKind::kGo: Go(c, f, op); return false;
      case OpKind::kDefer: DeferPoint(c, f, b, op); return false;
      case OpKind::kClosure: {
        Val v;
        v.kind = Val::kClosure;
        const std::string* fnref = op.fields.Get(Key::kFn);
        v.fn = fnref && fnref->starts_with("fn:") ? fnref->substr(3) : "";
        for (const std::string& r : SplitRefs(op.fields.Get(Key::kBind))) v.elems.push_back(Lookup(c, f, r, pos));
        Define(f, op, v);
        return false;
      }
      case OpKind::kIf: {
        if (b.succs.size() != 2) return false;
        LoopInfo* li = ExitLoop(f, op);
        Expr cond;
        if (li && li->counter) {
          ir::Expr e;
          std::string err;
          if (ir::ParseExpr(*li->loop->fields.Get(Key::kCond), &e, &err) && e.items.size() == 3) {
            int32_t l = Push(&cond, {ExprOp::kLocal, 0, li->var_slot});
            int32_t r = Translate(c, f, e.items[2], &cond, true, li->shaping);
            if (r < 0) {
              cond.nodes.clear();
            } else {
              Push(&cond, {e.items[0].atom == "<" ? ExprOp::kLt : ExprOp::kLe, 0, 0, l, r});
            }
          }
        } else {
          // A loop's exit test and the test that guards entering a loop
          // may read parameters; other tests are data the model does not
          // track (either branch).
          bool params = li != nullptr;
          bool shaping = li && li->shaping;
          for (LoopInfo& l : f.loops) {
            for (int s : b.succs) {
              if (!l.blocks.count(b.index) && l.blocks.count(s)) {
                params = true;
                shaping = shaping || l.shaping;
              }
            }
          }
          tentative_ = !params;
          var_loads_ = true;
          var_pos_ = pos;
          cond = TranslateText(c, f, op.fields.Get(Key::kCond), true, shaping);
          var_loads_ = false;
          tentative_ = false;
        }
        if (li && cond.Unknown() && li->guard_slot >= 0) {
          // A loop around concurrency whose bound the model cannot read:
          // its number of iterations is a parameter of its own.
          std::string file = pos.file < prog_.files.size() ? prog_.files[pos.file] : "";
          size_t slash = file.rfind('/');
          if (slash != std::string::npos) file = file.substr(slash + 1);
          std::string name = fmt::format("iterations({}:{})", file, li->loop->pos.line);
          int32_t g = Push(&cond, {ExprOp::kLocal, 0, li->guard_slot});
          int32_t n = Push(&cond, {ExprOp::kParam, 0, ParamIndex(name, "a loop whose bound the model cannot read", true)});
          int32_t lt = Push(&cond, {ExprOp::kLt, 0, 0, g, n});
          if (li->loop->fields.Flag(Key::kExitwhen)) Push(&cond, {ExprOp::kNot, 0, 0, lt});
        }
        Instr in = Make(InstrKind::kBranch, pos, EdgeLabel(c, f, b.index, b.succs[0]),
                        EdgeLabel(c, f, b.index, b.succs[1]));
        in.expr = std::move(cond);
        Emit(c, std::move(in));
        return true;
      }
      case OpKind::kReturn: {
        std::vector<std::string> vals = SplitRefs(op.fields.Get(Key::kVals));
        if (f.rets.size() < vals.size()) f.rets.resize(vals.size());
        for (size_t i = 0; i < vals.size(); i++) {
          Val v = Lookup(c, f, vals[i], pos);
          Val& r = f.rets[i];
          if (v.kind == Val::kHandle || v.kind == Val::kCell) {
            if (r.kind == Val::kNone) {
              r.kind = v.kind;
              r.slot = NewSlot(c);
              r.rlocker = v.rlocker;
            }
            if (r.slot >= 0) {
              Instr in = Make(InstrKind::kAssign, pos, r.slot);
              in.expr = Expr::Local(v.slot);
              Emit(c, std::move(in));
            }
          } else if (r.kind == Val::kNone && (v.kind == Val::kHolder || v.kind == Val::kClosure)) {
            r = v;
          } else if (v.kind == Val::kInt && !HasLocals(v.expr) && r.kind == Val::kNone) {
            r = v;
          }
        }
        Emit(c, Make(InstrKind::kJump, pos, f.exit_label));
        return true;
      }
      case OpKind::kPanic: Emit(c, Make(InstrKind::kPanic, pos)); return true;
      case OpKind::kRunDefers: RunDefers(c, f, pos); return false;
      case OpKind::kAlloc: {
        Prim p = prim_of();
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
        return false;
      }
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
      case OpKind::kVarStore: {
        ir::Expr cell;
        std::string err;
        if (!ir::ParseExpr(*op.fields.Get(Key::kCell), &cell, &err)) return false;
        int var = VarSlot(c, f, cell, pos);
        if (var < 0) return false;
        var_loads_ = true;
        var_pos_ = pos;
        Expr val = TranslateText(c, f, op.fields.Get(Key::kValue), false, false);
        var_loads_ = false;
        Instr in = Make(InstrKind::kStoreVar, pos, var);
        in.expr = std::move(val);
        in.text = *op.fields.Get(Key::kCell);
        Emit(c, std::move(in));
        return false;
      }
      case OpKind::kField: {
        Prim p = prim_of();
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
      case OpKind::kStore: {
        Prim p = prim_of();
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
        }
        return false;
      }
      case OpKind::kLoad: {
        Prim p = prim_of();
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
        return false;
      }
      case OpKind::kPhi: {
        if (prim_of() != Prim::kHolder) return false;  // its slot was made up front
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
      case OpKind::kCopy: {
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
        } else if (how && *how == "index" && (prim_of() == Prim::kChan || IsValuePrim(prim_of()))) {
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
            src = NewColl(c, n, prim_of(), pos);
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
        return false;
      }
      default: return false;
    }
  }

  bool Select(Ctx& c, Frame& f, const ir::Op& op) {
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
  void EmitSelect(Ctx& c, Instr in, const std::vector<int>& outside_targets, const ir::Pos& pos) {
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

  // ---- calls, goroutines, defers

  // The function a call-like op reaches, with its receiver/argument values
  // and the free values of a closure: one entry per possible callee.
  struct Target {
    std::string fn;
    std::vector<Val> params, frees;
  };

  std::vector<Target> Targets(Ctx& c, Frame& f, const ir::Op& op) {
    std::vector<Target> out;
    const std::string* mode = op.fields.Get(Key::kMode);
    if (!mode || *mode == "builtin") return out;
    std::vector<Val> args;
    for (const std::string& r : SplitRefs(op.fields.Get(Key::kArgs))) args.push_back(Lookup(c, f, r, op.pos));
    if (*mode == "static") {
      if (const std::string* callee = op.fields.Get(Key::kCallee)) out.push_back({*callee, args, {}});
    } else if (*mode == "closure" || *mode == "dynamic") {
      Val fv = Lookup(c, f, *op.fields.Get(Key::kFn), op.pos);
      if (fv.kind == Val::kClosure && !fv.fn.empty()) {
        out.push_back({fv.fn, args, fv.elems});
      } else if (const std::string* callee = op.fields.Get(Key::kCallee)) {
        out.push_back({*callee, args, {}});
      } else {
        for (const std::string& id : SplitRefs(op.fields.Get(Key::kCallees))) out.push_back({id, args, {}});
      }
    } else if (*mode == "invoke") {
      std::vector<Val> with_recv;
      if (const std::string* recv = op.fields.Get(Key::kRecv)) with_recv.push_back(Lookup(c, f, *recv, op.pos));
      with_recv.insert(with_recv.end(), args.begin(), args.end());
      for (const std::string& id : SplitRefs(op.fields.Get(Key::kCallees))) out.push_back({id, with_recv, {}});
    }
    // Externs are outside the model (taken as not touching its objects).
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const Target& t) {
                               const ir::Function* fn = prog_.FindFunction(t.fn);
                               return !fn || fn->blocks.empty();
                             }),
              out.end());
    if (static_cast<int>(out.size()) > opts_.max_callees) {
      Note(op.pos, fmt::format("a call with {} possible callees: the first {} are modelled", out.size(),
                               opts_.max_callees));
      out.resize(opts_.max_callees);
    }
    return out;
  }

  // t.Cleanup(fn) in the entry's process: fn runs when the test ends
  // (RunCleanups), if this call ran.
  bool Cleanup(Ctx& c, const ir::Op& op, Frame& f) {
    const std::string* mode = op.fields.Get(Key::kMode);
    const std::string* callee = op.fields.Get(Key::kCallee);
    if (!mode || *mode != "static" || !callee) return false;
    const ir::Extern* x = prog_.FindExtern(*callee);
    if (!x || (x->name != "(*testing.common).Cleanup" && x->name != "(*testing.T).Cleanup")) return false;
    std::vector<std::string> args = SplitRefs(op.fields.Get(Key::kArgs));
    Val fn = args.size() == 2 ? Lookup(c, f, args[1], op.pos) : Val{};
    if (c.parent || fn.kind != Val::kClosure || fn.fn.empty()) {
      Note(op.pos, "a t.Cleanup function the model does not run");
      return true;
    }
    int flag = NewSlot(c);
    Instr zero = Make(InstrKind::kAssign, op.pos, flag);
    zero.expr = Expr::Const(0);
    c.prologue.push_back(std::move(zero));
    Instr set = Make(InstrKind::kAssign, op.pos, flag);
    set.expr = Expr::Const(1);
    Emit(c, std::move(set));
    c.cleanups.push_back({flag, fn});
    return true;
  }

  void RunCleanups(Ctx& c, Frame& f) {
    for (size_t i = c.cleanups.size(); i-- > 0;) {
      auto [flag, fn] = c.cleanups[i];
      int run = NewLabel(c), skip = NewLabel(c);
      Instr br = Make(InstrKind::kBranch, f.fn->pos, run, skip);
      br.expr = Expr::Local(flag);
      Emit(c, std::move(br));
      Place(c, run);
      InlineCall(c, f, fn.fn, {}, fn.elems, nullptr, f.fn->pos, 1);
      Place(c, skip);
    }
  }

  void Call(Ctx& c, Frame& f, const ir::Op& op) {
    if (Cleanup(c, op, f)) {
      Define(f, op, Val{});
      return;
    }
    std::vector<Target> ts = Targets(c, f, op);
    if (ts.empty()) {
      Define(f, op, Val{});
      return;
    }
    if (ts.size() == 1) {
      Val r;
      InlineCall(c, f, ts[0].fn, ts[0].params, ts[0].frees, &r, op.pos, f.depth + 1);
      Define(f, op, r);
      return;
    }
    // Several possible callees: a nondeterministic choice among them.
    Instr ch = Make(InstrKind::kChoice, op.pos);
    std::vector<int> labels;
    for (size_t i = 0; i < ts.size(); i++) labels.push_back(NewLabel(c));
    ch.targets = labels;
    Emit(c, std::move(ch));
    int join = NewLabel(c);
    for (size_t i = 0; i < ts.size(); i++) {
      Place(c, labels[i]);
      InlineCall(c, f, ts[i].fn, ts[i].params, ts[i].frees, nullptr, op.pos, f.depth + 1);
      Emit(c, Make(InstrKind::kJump, op.pos, join));
    }
    Place(c, join);
    Define(f, op, Val{});
  }

  void InlineCall(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
                  const std::vector<Val>& frees, Val* result, const ir::Pos& pos, int depth = -1) {
    if (depth < 0) depth = f.depth + 1;
    const ir::Function* fn = prog_.FindFunction(id);
    if (!fn || fn->blocks.empty()) return;
    if (std::find(c.stack.begin(), c.stack.end(), id) != c.stack.end()) {
      Note(pos, fmt::format("recursive call of {}: not inlined (taken as touching nothing)", fn->name));
      return;
    }
    if (depth > opts_.inline_depth) {
      Note(pos, fmt::format("call of {} deeper than {} calls: not inlined (taken as touching nothing)",
                            fn->name, opts_.inline_depth));
      return;
    }
    Frame callee;
    callee.fn = fn;
    callee.depth = depth;
    Bind(callee, *fn, params, frees);
    callee.exit_label = NewLabel(c);
    c.stack.push_back(id);
    const ir::Pos* outer_site = c.wrapper_site;
    c.wrapper_site = fn->kind == "wrapper" ? (outer_site ? outer_site : &pos) : nullptr;
    EmitFunction(c, callee);
    c.wrapper_site = outer_site;
    c.stack.pop_back();
    Place(c, callee.exit_label);
    if (result) {
      if (fn->results == 1 && !callee.rets.empty()) {
        *result = callee.rets[0];
      } else if (fn->results > 1) {
        result->kind = Val::kTuple;
        result->elems = callee.rets;
        result->elems.resize(fn->results);
      }
    }
  }

  static void Bind(Frame& fr, const ir::Function& fn, const std::vector<Val>& params, const std::vector<Val>& frees) {
    for (size_t i = 0; i < fn.params.size(); i++) fr.vals[fn.params[i].ref] = i < params.size() ? params[i] : Val{};
    for (size_t i = 0; i < fn.frees.size(); i++) fr.vals[fn.frees[i].ref] = i < frees.size() ? frees[i] : Val{};
  }

  void Go(Ctx& c, Frame& f, const ir::Op& op) {
    std::vector<Target> ts = Targets(c, f, op);
    if (ts.empty()) {
      Note(op.pos, "a go statement whose function the model does not have: left out");
      return;
    }
    if (ts.size() > 1) Note(op.pos, "a go statement with several possible functions: the first is modelled");
    Spawn(c, f, ts[0].fn, ts[0].params, ts[0].frees, op.pos, -1);
  }

  // A value of the parent as the child template sees it.
  Val Import(Ctx& child, Ctx& parent, const Val& v, const ir::Pos& pos) {
    Val out;
    switch (v.kind) {
      case Val::kHandle: case Val::kCell: case Val::kVar: {
        out = v;
        out.slot = NewSlot(child);
        AddInput(child, out.slot, v.slot);
        return out;
      }
      case Val::kHolder:
        out.kind = Val::kHolder;
        out.holder = NewHolder(child, Holder::kInput, Resolve(parent, v.holder), parent.holders[Resolve(parent, v.holder)].name);
        return out;
      case Val::kInt: case Val::kSized: {
        if (!HasLocals(v.expr)) return v;
        int tmp = NewSlot(parent);
        Instr in = Make(InstrKind::kAssign, pos, tmp);
        in.expr = v.expr;
        Emit(parent, std::move(in));
        out.kind = v.kind;
        out.slot = NewSlot(child);
        out.expr = Expr::Local(out.slot);
        AddInput(child, out.slot, tmp);
        return out;
      }
      case Val::kClosure: case Val::kTuple:
        out = v;
        for (Val& e : out.elems) e = Import(child, parent, e, pos);
        return out;
      case Val::kColl: {
        // The goroutine sees the cells as they are when it starts.
        out = v;
        for (Val& e : out.elems) e = Import(child, parent, e, pos);
        if (HasLocals(v.expr)) out.expr = Import(child, parent, Val{Val::kInt, -1, -1, "", "", {}, v.expr}, pos).expr;
        return out;
      }
      case Val::kEntryParam: case Val::kGlobal: return v;
      default: return out;
    }
  }

  void Spawn(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
             const std::vector<Val>& frees, const ir::Pos& pos, int wg) {
    const ir::Function* fn = prog_.FindFunction(id);
    if (!fn) return;
    for (Ctx* p = &c; p; p = p->parent) {
      if (std::find(p->stack.begin(), p->stack.end(), id) != p->stack.end() && p != &c) {
        Note(pos, fmt::format("a goroutine of {} started from itself: left out", fn->name));
        return;
      }
    }
    if (total_instrs_ > static_cast<size_t>(opts_.max_instructions)) {
      Note(pos, "the model is too large: a go statement is left out");
      return;
    }
    Ctx child;
    child.parent = &c;
    child.index = NewTemplate(fn->name, pos);
    child.holders.push_back(Holder{Holder::kInput, 0, -1, "", {}, {}});
    Frame cf;
    cf.fn = fn;
    std::vector<Val> ps, fs;
    for (const Val& v : params) ps.push_back(Import(child, c, v, pos));
    for (const Val& v : frees) fs.push_back(Import(child, c, v, pos));
    Bind(cf, *fn, ps, fs);
    int child_wg = -1;
    if (wg >= 0) {
      child_wg = NewSlot(child);
      AddInput(child, child_wg, wg);
    }
    BuildTemplate(child, cf, child_wg);
    Instr in = Make(InstrKind::kGo, pos, -1, child.index);
    in.args = child.go_args;
    in.text = "go " + fn->name;
    Emit(c, std::move(in));
    (void)f;
  }

  void DeferPoint(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
    for (const LoopInfo& li : f.loops) {
      if (li.blocks.count(b.index)) {
        Note(op.pos, "a defer inside a loop: its call runs once at return");
        break;
      }
    }
    int flag = f.defer_flags.count(&op) ? f.defer_flags[&op] : NewSlot(c);
    Instr set = Make(InstrKind::kAssign, op.pos, flag);
    set.expr = Expr::Const(1);
    Emit(c, std::move(set));
    f.defers.push_back({flag, &op});
  }

  void RunDefers(Ctx& c, Frame& f, const ir::Pos& pos) {
    for (auto it = f.defers.rbegin(); it != f.defers.rend(); ++it) {
      int skip = NewLabel(c), run = NewLabel(c);
      Instr br = Make(InstrKind::kBranch, pos, run, skip);
      br.expr = Expr::Local(it->first);
      Emit(c, std::move(br));
      Place(c, run);
      ir::Op op = *it->second;
      if (op.kind == OpKind::kDefer) {
        op.kind = OpKind::kCall;
      }
      // Strip via=defer: the operation runs now.
      std::erase_if(op.fields.list, [](const ir::Field& fl) { return fl.key == Key::kVia; });
      const ir::Block dummy;
      Op(c, f, dummy, op);
      Place(c, skip);
    }
  }
};

bool CreatesPrimitive(const ir::Function& fn) {
  for (const ir::Block& b : fn.blocks) {
    for (const ir::Op& op : b.ops) {
      switch (op.kind) {
        case OpKind::kMakeChan: case OpKind::kCondNew: case OpKind::kCtxCancel: case OpKind::kCtxTimeout:
        case OpKind::kTimerAfter: case OpKind::kTimerNew: case OpKind::kTimerTick: case OpKind::kTimerNewTicker:
          return true;
        case OpKind::kAlloc: {
          const std::string* p = op.fields.Get(Key::kPrim);
          if (p && *p != "holder") return true;
          break;
        }
        default: break;
      }
    }
  }
  return false;
}

// A function that returns a primitive it made hands the other side of it
// to its caller: alone, every send on it would leak. Its callers' models
// inline it instead.
bool ReturnsPrimitive(const ir::Function& fn) {
  std::unordered_set<std::string> prims;
  for (const ir::Block& b : fn.blocks) {
    for (const ir::Op& op : b.ops) {
      const std::string* dst = op.fields.Get(Key::kDst);
      if (!dst) continue;
      // Ops whose dst is a primitive (not a value received, a lock's
      // success or an error).
      bool prim = false;
      switch (op.kind) {
        case OpKind::kMakeChan: case OpKind::kCondNew: case OpKind::kRLocker: case OpKind::kCtxRoot:
        case OpKind::kCtxCancel: case OpKind::kCtxTimeout: case OpKind::kCtxDetach: case OpKind::kCtxDone:
        case OpKind::kTimerAfter: case OpKind::kTimerTick: case OpKind::kTimerNew: case OpKind::kTimerNewTicker:
          prim = true;
          break;
        default: prim = ir::CategoryOf(op.kind) == ir::OpCategory::Flow && op.fields.Get(Key::kPrim);
      }
      if (prim) prims.insert(*dst);
    }
  }
  for (const ir::Block& b : fn.blocks) {
    for (const ir::Op& op : b.ops) {
      if (op.kind != OpKind::kReturn) continue;
      for (const std::string& v : SplitRefs(op.fields.Get(Key::kVals))) {
        if (prims.count(v)) return true;
      }
    }
  }
  return false;
}

bool TakesPrimitive(const ir::Function& fn) {
  for (const ir::Var& p : fn.params) {
    if (p.prim != Prim::kNone) return true;
  }
  return !fn.frees.empty();
}

}  // namespace

std::vector<const ir::Function*> EntryPoints(const ir::Program& prog) {
  std::unordered_set<std::string> pkgs;
  for (const ir::Package& p : prog.packages) pkgs.insert(p.path);
  std::vector<const ir::Function*> out;
  for (const ir::Function& fn : prog.functions) {
    if (!pkgs.count(fn.pkg) || fn.blocks.empty()) continue;
    bool entry = false;
    if (fn.kind == "test") {
      entry = fn.name.substr(fn.name.rfind('.') + 1).starts_with("Test");
    } else if (fn.kind == "func" || fn.kind == "method") {
      entry = (fn.exported || (CreatesPrimitive(fn) && !TakesPrimitive(fn))) && !ReturnsPrimitive(fn);
    }
    if (entry) out.push_back(&fn);
  }
  return out;
}

Model ExtractModel(const ir::Program& prog, const ir::Function& entry, const ExtractOptions& opts) {
  PredicateVars preds = FindPredicateVars(prog);
  Extractor x(prog, opts, preds);
  return x.Run(entry);
}

std::vector<Model> ExtractModels(const ir::Program& prog, const ExtractOptions& opts) {
  std::vector<Model> out;
  PredicateVars preds = FindPredicateVars(prog);
  for (const ir::Function* fn : EntryPoints(prog)) {
    Extractor x(prog, opts, preds);
    out.push_back(x.Run(*fn));
  }
  return out;
}

}  // namespace gordian::verify
