// This file owns the control flow of model extraction (extract_internal.h,
// Extractor): instructions and labels, a template's building and finishing
// (slots renumbered, labels resolved, dead assignments dropped), a
// function's blocks, edges (phi assignments, loop variables and guards)
// and loops, and the dispatch of an op to its family (the categories of
// ir/op_kinds.def), with the Control family (if, return, panic, run-defers).
#include <fmt/format.h>

#include <unordered_set>

#include "gordian/verify/extract_internal.h"

namespace gordian::verify::extract_internal {

void Extractor::Emit(Ctx& c, Instr in) {
  if (c.wrapper_site) in.pos = *c.wrapper_site;
  if (in.recover < 0 && MayPanic(in.kind)) in.recover = RecoverLabel(c);
  if (in.kind == InstrKind::kAssign && in.expr.nodes.size() == 1 && in.expr.nodes[0].op == ExprOp::kLocal) {
    c.copies.emplace(in.a, in.expr.nodes[0].index);
  }
  c.code.push_back(std::move(in));
  total_instrs_++;
}

bool Extractor::MayPanic(InstrKind k) {
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
int Extractor::RecoverLabel(Ctx& c) {
  for (auto it = c.frames.rbegin(); it != c.frames.rend(); ++it) {
    Frame& fr = **it;
    if (!fr.recovers) continue;
    if (fr.recover_label < 0) fr.recover_label = NewLabel(c);
    return fr.recover_label;
  }
  return -1;
}

// fn defers a call of a function that calls recover().
bool Extractor::Recovers(const ir::Function& fn) const {
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

// Builds the template of ctx from frame f (its root function); wg >= 0:
// a WaitGroup slot to call Done on at the end (WaitGroup.Go).
void Extractor::BuildTemplate(Ctx& c, Frame& f, int wg) {
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

void Extractor::Finish(Ctx& c) {
  // A nil test of a slot the model may hold -1 in for a channel it does
  // not have is data the model does not track: either branch.
  for (const auto& [pc, slot] : c.nil_tests) {
    if (NilUnknown(c, slot)) c.code[pc].expr.nodes.clear();
  }
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
void Extractor::DropDeadAssignments(std::vector<Instr>* code) {
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

void Extractor::PrepareLoops(Ctx& c, Frame& f) {
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

void Extractor::EmitFunction(Ctx& c, Frame& f) {
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

bool Extractor::EdgeHasActions(Frame& f, int from, int to) {
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

int Extractor::EdgeLabel(Ctx& c, Frame& f, int from, int to) {
  if (to < 0 || to >= static_cast<int>(f.fn->blocks.size())) return f.exit_label;
  if (!EdgeHasActions(f, from, to)) return f.block_label[to];
  int label = NewLabel(c);
  f.stubs.push_back({label, from, to});
  return label;
}

void Extractor::EdgeActions(Ctx& c, Frame& f, int from, int to) {
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
      } else if (it != f.vals.end() && it->second.kind == Val::kHandle) {
        c.nil_unknown.insert(it->second.slot);  // this edge leaves the phi's slot as it was
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
LoopInfo* Extractor::ExitLoop(Frame& f, const ir::Op& op) {
  for (LoopInfo& li : f.loops) {
    if (li.exit_if == &op) return &li;
  }
  return nullptr;
}

// Emits the model of op; true when it ended the block (a jump or return).
// A primitive op run by a defer or go statement is handled here; every
// other op goes to its family's function, by its category in
// ir/op_kinds.def.
bool Extractor::Op(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
  const std::string* via = op.fields.Get(Key::kVia);
  if (via && *via == "defer") {
    DeferPoint(c, f, b, op);
    return false;
  }
  if (via && *via == "go") {
    Note(op.pos, fmt::format("`go` of {} directly is not modelled", ir::OpKindName(op.kind)));
    return false;
  }
  switch (ir::CategoryOf(op.kind)) {
    case ir::OpCategory::Chan: return OpChan(c, f, op);
    case ir::OpCategory::Sync: return OpSync(c, f, op);
    case ir::OpCategory::Context: return OpContext(c, f, op);
    case ir::OpCategory::Timer: return OpTimer(c, f, op);
    case ir::OpCategory::Call: return OpCall(c, f, b, op);
    case ir::OpCategory::Control: return OpControl(c, f, b, op);
    case ir::OpCategory::Flow: return OpFlow(c, f, op);
  }
  return false;
}

// An operation on the object in slot (op's kind for the note when the
// model does not track it); nothing for an object from outside the model.
void Extractor::Simple(Ctx& c, const ir::Op& op, InstrKind k, int slot) {
  if (slot < 0) {
    Note(op.pos, fmt::format("{} on a value the model does not track: left out", ir::OpKindName(op.kind)));
    return;
  }
  if (c.opaque.count(slot)) return;
  Emit(c, Make(k, op.pos, slot));
}

bool Extractor::OpControl(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
  switch (op.kind) {
    case OpKind::kIf: return If(c, f, b, op);
    case OpKind::kReturn: return Return(c, f, op);
    case OpKind::kPanic: Emit(c, Make(InstrKind::kPanic, op.pos)); return true;
    case OpKind::kRunDefers: RunDefers(c, f, op.pos); return false;
    default: return false;
  }
}

// A branch: a loop's exit test (over its counter, its variable or, for a
// loop around concurrency, a parameter of its own), or a test of data.
bool Extractor::If(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
  if (b.succs.size() != 2) return false;
  LoopInfo* li = ExitLoop(f, op);
  Expr cond;
  std::vector<int> nil_slots;  // the slots the condition's nil tests read
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
    nil_slots_ = &nil_slots;
    cond = TranslateText(c, f, op.fields.Get(Key::kCond), true, shaping);
    nil_slots_ = nullptr;
    var_loads_ = false;
    tentative_ = false;
    if (cond.Unknown()) nil_slots.clear();
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
  for (int s : nil_slots) c.nil_tests.push_back({static_cast<int>(c.code.size()) - 1, s});
  return true;
}

// A return: the values the caller may use (handles through slots of their
// own, holders, closures and constant integers as they are).
bool Extractor::Return(Ctx& c, Frame& f, const ir::Op& op) {
  const ir::Pos& pos = op.pos;
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
        if (f.rets_untracked.count(i)) c.nil_unknown.insert(r.slot);
      }
      if (r.slot >= 0) {
        Instr in = Make(InstrKind::kAssign, pos, r.slot);
        in.expr = Expr::Local(v.slot);
        Emit(c, std::move(in));
      }
    } else if ((r.kind == Val::kHandle || r.kind == Val::kCell) && r.slot >= 0) {
      c.nil_unknown.insert(r.slot);  // this path leaves the result's slot as it was
    } else if (v.kind == Val::kNone && r.kind == Val::kNone) {
      f.rets_untracked.insert(i);
    } else if (r.kind == Val::kNone && (v.kind == Val::kHolder || v.kind == Val::kClosure)) {
      r = v;
    } else if (v.kind == Val::kInt && !HasLocals(v.expr) && r.kind == Val::kNone) {
      r = v;
    }
  }
  Emit(c, Make(InstrKind::kJump, pos, f.exit_label));
  return true;
}

}  // namespace gordian::verify::extract_internal
