// This file owns calls in model extraction (extract_internal.h, Extractor;
// the Call family of ir/op_kinds.def): the callees an op reaches, inlining
// (bounded in depth, never recursive), goroutines as templates with the
// values they capture as inputs, defers (a flag per defer statement, run in
// LIFO order) and t.Cleanup functions.
#include <fmt/format.h>

#include <algorithm>

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

bool Extractor::OpCall(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
  switch (op.kind) {
    case OpKind::kCall: Call(c, f, op); return false;
    case OpKind::kGo: Go(c, f, op); return false;
    case OpKind::kDefer: DeferPoint(c, f, b, op); return false;
    case OpKind::kClosure: {
      Val v;
      v.kind = Val::kClosure;
      const std::string* fnref = op.fields.Get(Key::kFn);
      v.fn = fnref && fnref->starts_with("fn:") ? fnref->substr(3) : "";
      for (const std::string& r : SplitRefs(op.fields.Get(Key::kBind))) v.elems.push_back(Lookup(c, f, r, op.pos));
      Define(f, op, v);
      return false;
    }
    default: return false;
  }
}

std::vector<Extractor::Target> Extractor::Targets(Ctx& c, Frame& f, const ir::Op& op) {
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
bool Extractor::Cleanup(Ctx& c, const ir::Op& op, Frame& f) {
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

void Extractor::RunCleanups(Ctx& c, Frame& f) {
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

void Extractor::Call(Ctx& c, Frame& f, const ir::Op& op) {
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

void Extractor::InlineCall(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
                          const std::vector<Val>& frees, Val* result, const ir::Pos& pos, int depth) {
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

void Extractor::Bind(Frame& fr, const ir::Function& fn, const std::vector<Val>& params, const std::vector<Val>& frees) {
  for (size_t i = 0; i < fn.params.size(); i++) fr.vals[fn.params[i].ref] = i < params.size() ? params[i] : Val{};
  for (size_t i = 0; i < fn.frees.size(); i++) fr.vals[fn.frees[i].ref] = i < frees.size() ? frees[i] : Val{};
}

void Extractor::Go(Ctx& c, Frame& f, const ir::Op& op) {
  std::vector<Target> ts = Targets(c, f, op);
  if (ts.empty()) {
    Note(op.pos, "a go statement whose function the model does not have: left out");
    return;
  }
  if (ts.size() > 1) Note(op.pos, "a go statement with several possible functions: the first is modelled");
  Spawn(c, f, ts[0].fn, ts[0].params, ts[0].frees, op.pos, -1);
}

// A value of the parent as the child template sees it.
Val Extractor::Import(Ctx& child, Ctx& parent, const Val& v, const ir::Pos& pos) {
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

void Extractor::Spawn(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
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

void Extractor::DeferPoint(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
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

void Extractor::RunDefers(Ctx& c, Frame& f, const ir::Pos& pos) {
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

}  // namespace gordian::verify::extract_internal
