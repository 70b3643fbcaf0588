// This file declares what the files of model extraction share (an internal
// header of verify/, not part of extract.h): the extractor's values (Val),
// the template being built (Ctx) and the function being inlined (Frame),
// small helpers over expressions and instructions, and the Extractor class,
// whose members are defined by concern:
//   extract.cc           entry points, a model as a whole, predicate variables
//                        and flags
//   extract_values.cc    parameters, holders and fields, values, collections,
//                        expressions, nil tests
//   extract_control.cc   functions and control flow: templates, blocks, edges,
//                        loops, the dispatch of an op to its family, if/return
//   extract_calls.cc     calls, goroutines, defers, cleanups (the Call family)
//   extract_channels.cc  the Chan family (select among them)
//   extract_sync.cc      the Sync family: locks, WaitGroups, Once, Cond
//   extract_context.cc   the Context and Timer families
//   extract_flow.cc      the Flow family: where primitives flow (alloc, field,
//                        store, load, phi, copy, sized, tracked variables)
// The families are the categories of ir/op_kinds.def.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gordian/ir/expr.h"
#include "gordian/ir/ir.h"
#include "gordian/verify/extract.h"
#include "gordian/verify/model.h"

namespace gordian::verify::extract_internal {

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

inline bool IsValuePrim(Prim p) {
  return p == Prim::kMutex || p == Prim::kRWMutex || p == Prim::kWaitGroup || p == Prim::kOnce;
}

struct FieldSlot {
  int slot = -1;
  int holder = -1;
  Prim prim = Prim::kNone;  // what the field was first used as
};

struct Holder {
  enum Origin : uint8_t { kLocal, kInput, kOutside } origin = kLocal;
  int parent = -1;    // kInput: the parent Ctx's holder
  int redirect = -1;  // a pointer variable that was stored a holder
  std::string name;
  std::map<std::string, FieldSlot> fields;
  std::map<std::string, int> vars;  // tracked bool/int fields: slot of the kVar object
  // A struct the model does not follow was stored over this one: its
  // fields' -1 may stand for primitives the model does not have.
  bool nil_unknown = false;
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
  // Nil tests (`x == nil` on a channel, timer, Cond or context): a slot
  // holds -1 exactly when the primitive is nil, unless the slot is in
  // nil_unknown or was copied from one that is (copies: each copy's source
  // slots, by destination). Such a slot's -1 may stand for a primitive the
  // model does not have (a store it does not follow, a primitive from
  // outside, a result it cannot read),
  // so its nil tests stay unknown; nil_tests lists each branch on a nil
  // test (its index in code, the slot it reads), settled at Finish.
  std::set<int> nil_unknown;
  std::multimap<int, int> copies;
  std::vector<std::pair<int, int>> nil_tests;
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
  std::set<size_t> rets_untracked;  // results some return gives a value the model does not track
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
inline std::vector<std::string> SplitList(const std::string& s) {
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

inline std::vector<std::string> SplitRefs(const std::string* s) {
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

inline bool ParseInt64(const std::string& s, int64_t* v) {
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
inline int32_t Splice(Expr* dst, const Expr& src) {
  int32_t base = static_cast<int32_t>(dst->nodes.size());
  for (ExprNode n : src.nodes) {
    if (n.lhs >= 0) n.lhs += base;
    if (n.rhs >= 0) n.rhs += base;
    dst->nodes.push_back(n);
  }
  return static_cast<int32_t>(dst->nodes.size()) - 1;
}

inline int32_t Push(Expr* e, ExprNode n) {
  e->nodes.push_back(n);
  return static_cast<int32_t>(e->nodes.size()) - 1;
}

inline bool HasParams(const Expr& e) {
  return std::any_of(e.nodes.begin(), e.nodes.end(), [](const ExprNode& n) { return n.op == ExprOp::kParam; });
}

inline bool HasLocals(const Expr& e) {
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

// The prim= of op (kNone when it has none).
inline Prim PrimOf(const ir::Op& op) {
  Prim p = Prim::kNone;
  if (const std::string* s = op.fields.Get(Key::kPrim)) ir::ParsePrim(*s, &p);
  return p;
}

// Lock, Unlock and TryLock serve a Mutex and an RWMutex alike; the op's
// prim says which, so that a lock first met here (a package-level
// RWMutex, made when first used) is made as what it is.
inline Prim LockPrim(const ir::Op& op) { return PrimOf(op) == Prim::kRWMutex ? Prim::kRWMutex : Prim::kMutex; }

// The variables Cond predicate loops test (`for !g.ready { g.c.Wait() }`):
// the model tracks these as shared kVar objects, so that a waiter woken
// after the predicate became true leaves its loop; every other bool or
// integer but the flags below stays data the model does not track. Keyed
// by name, since one program's predicate may be another function's store:
// struct field names, captured locals' names, "g:" + a package variable.
//
// flags: bool fields set only to constants (`s.closed = true`, every
// var-store of a field of that name in the program stores true or false)
// and read by a branch (`if s.closed`). The model tracks them too, but
// only in structs it made (a holder of origin kLocal, or a goroutine's
// view of one): false at allocation, set at each store, so that a Send
// that checks closed under the lock does not send after Close. In a
// struct from outside the model such a field stays data the model does
// not track (either branch).
struct PredicateVars {
  std::set<std::string> fields, names, flags;
};

class Extractor {
 public:
  Extractor(const ir::Program& prog, const ExtractOptions& opts, const PredicateVars& preds)
      : prog_(prog), opts_(opts), preds_(preds) {}

  // The model of entry (extract.cc).
  Model Run(const ir::Function& entry);

 private:
  const ir::Program& prog_;
  const ExtractOptions& opts_;
  const PredicateVars& preds_;
  // Set while translating a branch's condition or a stored value: a read of
  // a tracked variable becomes a load-var into a fresh slot (at var_pos_).
  bool var_loads_ = false;
  ir::Pos var_pos_;
  // Set while translating an if's condition: the slots its nil tests read.
  std::vector<int>* nil_slots_ = nullptr;
  Model model_;
  std::set<std::string> notes_;
  size_t total_instrs_ = 0;
  // Flags some store of this model could not place (the struct it writes
  // is data the model does not track, which may be one it made): their
  // tests become unknown at the end (DropLostFlags). Their loads carry
  // kFlagLoad + the name as text (a counterexample step shows it).
  std::set<std::string> lost_flags_;
  static constexpr const char* kFlagLoad = "load-var ";
  std::vector<bool> shaping_;  // per parameter: read by a capacity, delta or loop bound
  bool tentative_ = false;

  // ---- a model as a whole (extract.cc)

  // A test that read a parameter nothing else that shapes concurrency
  // reads becomes unknown (either branch: data the model does not track),
  // and such parameters are dropped.
  void DropTentative();
  // A test that read a flag in lost_flags_ becomes unknown (either branch).
  void DropLostFlags();
  void Note(const ir::Pos& pos, const std::string& what);
  int NewTemplate(const std::string& name, const ir::Pos& pos);

  // ---- code, labels and instructions (extract_control.cc)

  static int NewSlot(Ctx& c) { return c.num_slots++; }
  static int NewLabel(Ctx& c) {
    c.label_pc.push_back(-1);
    return static_cast<int>(c.label_pc.size()) - 1;
  }
  static void Place(Ctx& c, int label) { c.label_pc[label] = static_cast<int>(c.code.size()); }
  void Emit(Ctx& c, Instr in);
  static bool MayPanic(InstrKind k);
  // The landing pad of the innermost function being inlined whose deferred
  // call recovers, or -1.
  int RecoverLabel(Ctx& c);
  // fn defers a call of a function that calls recover().
  bool Recovers(const ir::Function& fn) const;
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

  // ---- parameters (extract_values.cc)

  // tentative_: the parameter is read by a plain test (not a capacity,
  // delta or loop bound); it stays a parameter only if something that
  // shapes concurrency reads it too (see DropTentative).
  int ParamIndex(const std::string& name, const std::string& source, bool mandatory);
  Val EntryParamVal(Ctx& c, const ir::Var& p);
  // A primitive the entry point receives from outside: a zero sync object
  // is made; a context may be cancelled at any time; a channel's other side
  // is unknown, so operations on it are not modelled.
  void Outside(Ctx& c, int slot, Prim prim, const std::string& name, const ir::Pos& pos);

  // ---- holders and fields (extract_values.cc)

  static int Resolve(Ctx& c, int h);
  int NewHolder(Ctx& c, Holder::Origin origin, int parent, const std::string& name);
  void AddInput(Ctx& c, int slot, int parent_slot);
  // The field `name` of holder h: a holder, or the slot of the field.
  FieldSlot Field(Ctx& c, int h, const std::string& name, Prim prim, const ir::Pos& pos);
  // The slot of tracked variable `name` of holder h (a bool or integer
  // field; holder 0's are package variables): the kVar object is made in
  // the prologue of the process that made the holder, zero for a struct it
  // made, any value for one from outside the model.
  int VarField(Ctx& c, int h, const std::string& name, const ir::Pos& pos);
  int HolderOf(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos);
  // Holder h is a struct the model made: of origin kLocal (not the package
  // variables), or a goroutine's input whose parent's holder is, and no
  // struct the model does not follow was stored over it.
  static bool MadeInModel(Ctx& c, int h);
  // The flag (PredicateVars::flags, not a predicate's variable) the
  // address expression e names (`(field X name)`), or nullptr.
  const std::string* FlagOf(const ir::Expr& e) const;
  // The slot of the tracked variable at address expression e, or -1.
  int VarSlot(Ctx& c, Frame& f, const ir::Expr& e, const ir::Pos& pos);
  Val FieldVal(Ctx& c, int h, const std::string& name, Prim prim, bool addr, const ir::Pos& pos);

  // ---- values (extract_values.cc)

  Val Lookup(Ctx& c, Frame& f, const std::string& ref, const ir::Pos& pos);
  // A global's address as a value of a primitive kind (or a holder).
  Val GlobalVal(Ctx& c, const Val& g, Prim prim, const ir::Pos& pos);
  // The object slot that an operation's operand names, or -1.
  int Handle(Ctx& c, Frame& f, const ir::Op& op, Key key, Prim prim);

  // ---- collections of channels (extract_values.cc)

  // Cells a collection the model has not seen made gets: its known
  // length when small, else this bound (an index past it reads nil).
  static constexpr int kMaxElems = 5;

  // A new collection of n cells, made in the prologue (the array is taken
  // as made once, at the start of the process): nil channels, or zero
  // Mutexes, RWMutexes, WaitGroups or Onces.
  Val NewColl(Ctx& c, int n, Prim prim, const ir::Pos& pos);
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
  int ReadElem(Ctx& c, const Val& e, const ir::Pos& pos);
  void WriteElem(Ctx& c, const Val& e, int val, const ir::Pos& pos);
  void Define(Frame& f, const ir::Op& op, Val v) {
    if (const std::string* d = op.fields.Get(Key::kDst)) f.vals[*d] = std::move(v);
  }

  // ---- expressions (extract_values.cc)

  // Translates e into out (appending); -1 when it reads data the model does
  // not track. params: free references of the entry point may become
  // parameters (mandatory or optional).
  int32_t Translate(Ctx& c, Frame& f, const ir::Expr& e, Expr* out, bool params, bool mandatory);
  // A nil test (`(== x nil)`, `(!= x nil)`, either order) translated as
  // the primitive's slot against -1; -1 when x is no channel (timer,
  // ticker, Cond, context) the model holds (then the test is data the
  // model does not track).
  int32_t TranslateNilTest(Ctx& c, Frame& f, const ir::Expr& e, Expr* out);
  // The slot holding the primitive x reads (a value, a variable's load, a
  // struct field's load), or -1.
  int NilTestSlot(Ctx& c, Frame& f, const ir::Expr& x);
  // A primitive a nil test may decide: one held by reference, whose zero
  // value is nil (a channel, a *Timer or *Ticker, a *Cond, a Context).
  static bool IsNilable(Prim p);
  // ref (a value of f's function) is such a primitive by its IR: a
  // parameter, free variable or op result with its prim, or one an op made.
  static bool IsNilableRef(const Frame& f, const std::string& ref);
  // The slot's -1 may stand for a channel the model does not have (see
  // Ctx::nil_unknown).
  static bool NilUnknown(const Ctx& c, int slot);
  // e's text translated, or an unknown Expr.
  Expr TranslateText(Ctx& c, Frame& f, const std::string* text, bool params, bool mandatory);

  // ---- functions and control flow (extract_control.cc)

  // Builds the template of ctx from frame f (its root function); wg >= 0:
  // a WaitGroup slot to call Done on at the end (WaitGroup.Go).
  void BuildTemplate(Ctx& c, Frame& f, int wg);
  void Finish(Ctx& c);
  // An assignment to a slot nothing else reads becomes a nop: a loop
  // counter whose test the model cannot evaluate would otherwise count
  // for ever and make every iteration a new state.
  static void DropDeadAssignments(std::vector<Instr>* code);
  void PrepareLoops(Ctx& c, Frame& f);
  void EmitFunction(Ctx& c, Frame& f);
  bool EdgeHasActions(Frame& f, int from, int to);
  int EdgeLabel(Ctx& c, Frame& f, int from, int to);
  void EdgeActions(Ctx& c, Frame& f, int from, int to);
  // The loop whose exit test op is, or nullptr.
  LoopInfo* ExitLoop(Frame& f, const ir::Op& op);

  // ---- ops, by family (ir/op_kinds.def's categories)

  // Emits the model of op; true when it ended the block (a jump or return)
  // (extract_control.cc).
  bool Op(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op);
  // An operation on the object in slot, when the model tracks it.
  void Simple(Ctx& c, const ir::Op& op, InstrKind k, int slot);
  // Control (extract_control.cc).
  bool OpControl(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op);
  bool If(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op);
  bool Return(Ctx& c, Frame& f, const ir::Op& op);
  // Chan (extract_channels.cc).
  bool OpChan(Ctx& c, Frame& f, const ir::Op& op);
  bool Select(Ctx& c, Frame& f, const ir::Op& op);
  // The select instruction and its way out when no case is ready (the
  // default, or cases on channels the model does not have).
  void EmitSelect(Ctx& c, Instr in, const std::vector<int>& outside_targets, const ir::Pos& pos);
  // Sync (extract_sync.cc).
  bool OpSync(Ctx& c, Frame& f, const ir::Op& op);
  void OpLock(Ctx& c, Frame& f, const ir::Op& op);
  void OpWaitGroup(Ctx& c, Frame& f, const ir::Op& op);
  void OpOnceDo(Ctx& c, Frame& f, const ir::Op& op);
  void OpCond(Ctx& c, Frame& f, const ir::Op& op);
  // Context and Timer (extract_context.cc).
  bool OpContext(Ctx& c, Frame& f, const ir::Op& op);
  bool OpTimer(Ctx& c, Frame& f, const ir::Op& op);
  // Flow (extract_flow.cc).
  bool OpFlow(Ctx& c, Frame& f, const ir::Op& op);
  void OpAlloc(Ctx& c, Frame& f, const ir::Op& op);
  void OpVarStore(Ctx& c, Frame& f, const ir::Op& op);
  void OpStore(Ctx& c, Frame& f, const ir::Op& op);
  void OpLoad(Ctx& c, Frame& f, const ir::Op& op);
  void OpCopy(Ctx& c, Frame& f, const ir::Op& op);
  // Call (extract_calls.cc).
  bool OpCall(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op);

  // ---- calls, goroutines, defers (extract_calls.cc)

  // The function a call-like op reaches, with its receiver/argument values
  // and the free values of a closure: one entry per possible callee.
  struct Target {
    std::string fn;
    std::vector<Val> params, frees;
  };

  std::vector<Target> Targets(Ctx& c, Frame& f, const ir::Op& op);
  // t.Cleanup(fn) in the entry's process: fn runs when the test ends
  // (RunCleanups), if this call ran.
  bool Cleanup(Ctx& c, const ir::Op& op, Frame& f);
  void RunCleanups(Ctx& c, Frame& f);
  void Call(Ctx& c, Frame& f, const ir::Op& op);
  void InlineCall(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
                  const std::vector<Val>& frees, Val* result, const ir::Pos& pos, int depth = -1);
  static void Bind(Frame& fr, const ir::Function& fn, const std::vector<Val>& params, const std::vector<Val>& frees);
  void Go(Ctx& c, Frame& f, const ir::Op& op);
  // A value of the parent as the child template sees it.
  Val Import(Ctx& child, Ctx& parent, const Val& v, const ir::Pos& pos);
  void Spawn(Ctx& c, Frame& f, const std::string& id, const std::vector<Val>& params,
             const std::vector<Val>& frees, const ir::Pos& pos, int wg);
  void DeferPoint(Ctx& c, Frame& f, const ir::Block& b, const ir::Op& op);
  void RunDefers(Ctx& c, Frame& f, const ir::Pos& pos);
};

}  // namespace gordian::verify::extract_internal
