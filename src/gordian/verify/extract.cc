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
//
// This file holds the entry points, a model as a whole and the variables
// the model tracks (Cond predicates' and flags set once); the rest of the
// extractor is split by concern (extract_internal.h lists the files).
#include "gordian/verify/extract.h"

#include <fmt/format.h>

#include <set>
#include <string>
#include <unordered_set>

#include "gordian/ir/expr.h"
#include "gordian/verify/extract_internal.h"

namespace gordian::verify {
namespace extract_internal {

Model Extractor::Run(const ir::Function& entry) {
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
  DropLostFlags();
  DropTentative();
  model_.notes.assign(notes_.begin(), notes_.end());
  return std::move(model_);
}

// A test that read a parameter nothing else that shapes concurrency
// reads becomes unknown (either branch: data the model does not track),
// and such parameters are dropped.
void Extractor::DropTentative() {
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

// A test that read a flag some store of this model could not place
// becomes unknown (either branch): the flag may be true where the model
// holds it false.
void Extractor::DropLostFlags() {
  if (lost_flags_.empty()) return;
  const size_t mark = std::string(kFlagLoad).size();
  for (Template& t : model_.templates) {
    std::set<int32_t> lost;
    for (const Instr& in : t.code) {
      if (in.kind == InstrKind::kLoadVar && in.text.starts_with(kFlagLoad) &&
          lost_flags_.count(in.text.substr(mark))) {
        lost.insert(in.a);
      }
    }
    if (lost.empty()) continue;
    for (Instr& in : t.code) {
      if (in.kind == InstrKind::kLoadVar) continue;
      for (const ExprNode& n : in.expr.nodes) {
        if (n.op == ExprOp::kLocal && lost.count(n.index)) {
          in.expr.nodes.clear();
          break;
        }
      }
    }
  }
}

void Extractor::Note(const ir::Pos& pos, const std::string& what) {
  std::string where = prog_.PosString(pos);
  notes_.insert(where.empty() ? what : where + ": " + what);
}

int Extractor::NewTemplate(const std::string& name, const ir::Pos& pos) {
  Template t;
  t.name = name;
  t.pos = pos;
  model_.templates.push_back(std::move(t));
  return static_cast<int>(model_.templates.size()) - 1;
}

}  // namespace extract_internal

using namespace extract_internal;

namespace {

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

// The field names e reads (`(load (field X name))`).
void CollectFieldReads(const ir::Expr& e, std::set<std::string>* out) {
  if (e.IsAtom()) return;
  if (e.items.size() == 2 && e.items[0].IsAtom() && e.items[0].atom == "load") {
    const ir::Expr& a = e.items[1];
    if (!a.IsAtom() && a.items.size() == 3 && a.items[0].IsAtom() && a.items[0].atom == "field" &&
        a.items[2].IsAtom()) {
      out->insert(a.items[2].atom);
    }
  }
  for (const ir::Expr& sub : e.items) CollectFieldReads(sub, out);
}

// Bool fields set only to constants and read by a branch (PredicateVars::
// flags). Fields are known by name across the program, so one store of
// anything but true or false to a field of that name (in any struct)
// leaves the name untracked.
std::set<std::string> FindFlags(const ir::Program& prog) {
  std::set<std::string> read, constant, other;
  for (const ir::Function& fn : prog.functions) {
    for (const ir::Block& b : fn.blocks) {
      for (const ir::Op& op : b.ops) {
        ir::Expr e;
        std::string err;
        if (op.kind == OpKind::kIf) {
          const std::string* cond = op.fields.Get(Key::kCond);
          if (cond && ir::ParseExpr(*cond, &e, &err)) CollectFieldReads(e, &read);
          continue;
        }
        const std::string* cell = op.fields.Get(Key::kCell);
        if (op.kind != OpKind::kVarStore || !cell || !ir::ParseExpr(*cell, &e, &err)) continue;
        if (e.IsAtom() || e.items.size() != 3 || !e.items[0].IsAtom() || e.items[0].atom != "field" ||
            !e.items[2].IsAtom()) {
          continue;
        }
        const std::string* value = op.fields.Get(Key::kValue);
        const bool flag = value && (*value == "true" || *value == "false");
        (flag ? constant : other).insert(e.items[2].atom);
      }
    }
  }
  std::set<std::string> out;
  for (const std::string& name : constant) {
    if (read.count(name) && !other.count(name)) out.insert(name);
  }
  return out;
}

PredicateVars FindPredicateVars(const ir::Program& prog) {
  PredicateVars out;
  out.flags = FindFlags(prog);
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
