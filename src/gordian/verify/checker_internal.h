// This file declares what the model checker's files share (an internal
// header of verify/, not part of checker.h): the moves of a state and the
// violations seen in it, the dead-variable reduction (checker_dead_locals.cc),
// the step function Explorer (its successor expansion in checker_expand.cc,
// its stuck-state classification in checker_stuck.cc), and the
// counterexample helpers (checker_counterexample.cc) that the search
// (checker.cc) and Replay use. Explorer's small accessors and successor
// builders are inline here: they run for every move of every state.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gordian/verify/checker.h"
#include "gordian/verify/checker_state.h"
#include "gordian/verify/model.h"

namespace gordian::verify::checker_internal {

// Steps that touch nothing another process can see or change (their
// objects are new, their reads immutable): partial-order reduction takes
// one of them alone.
inline bool IsLocalKind(InstrKind k) {
  switch (k) {
    case InstrKind::kNop: case InstrKind::kJump: case InstrKind::kBranch: case InstrKind::kChoice:
    case InstrKind::kAssign: case InstrKind::kMakeChan: case InstrKind::kMakeMutex:
    case InstrKind::kMakeRWMutex: case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
    case InstrKind::kMakeCond: case InstrKind::kMakeContext: case InstrKind::kCtxDone:
    case InstrKind::kMakeTimer: case InstrKind::kMakeVar: case InstrKind::kGo: case InstrKind::kEnd:
      return true;
    default:
      return false;
  }
}

// One step of a move: process p ran code[pc] of template t (case sc of a select).
struct MoveStep {
  int32_t p = -1, t = -1, pc = -1, sc = -1;
};

// One move of a state: one or two process steps (a rendezvous, a signal
// and the waiter it wakes), or an environment step on object env.
struct Move {
  MoveStep step[2];
  int32_t nsteps = 0;
  int32_t env = -1;
  uint32_t off = 0, len = 0;  // the successor in Explorer::succ_
};

// A violation seen while expanding a state: a panicking move, a process
// that locks a lock it holds, or a stuck state.
struct Bad {
  explicit Bad(FindingKind k, Primitive prim = Primitive::None) : kind(k), primitive(prim) {}
  FindingKind kind;
  Primitive primitive;
  Move move;                    // a panicking move's steps (nsteps 0 otherwise)
  std::vector<MoveStep> where;  // processes blocked forever
};

// Dead-variable reduction: which locals of each template are dead at each
// pc (no path from there reads them before writing them, where a read by
// an assignment to a dead local does not count). The step
// function sets them to -1, so states that differ only in values nobody
// reads again (a loop counter after its loop, an ok flag already tested, a
// handle no longer used) are one state.
class DeadLocals {
 public:
  DeadLocals(const Model& m, bool enabled) {
    dead_.resize(m.templates.size());
    if (!enabled) return;
    for (size_t t = 0; t < m.templates.size(); ++t) Compute(m.templates[t], &dead_[t]);
  }
  // The slots dead at pc of template t (none when disabled).
  const std::vector<int32_t>& At(int32_t t, int32_t pc) const {
    static const std::vector<int32_t> kNone;
    return dead_[t].empty() ? kNone : dead_[t][pc];
  }

 private:
  static void Reads(const Instr& in, std::vector<int32_t>* out);
  // Slots every completion of the instruction writes (a select's ok slots
  // are written by one case only: not counted).
  static void Writes(const Instr& in, std::vector<int32_t>* out);
  static void Successors(const Instr& in, int32_t pc, std::vector<int32_t>* out);
  static void Compute(const Template& t, std::vector<std::vector<int32_t>>* dead);

  std::vector<std::vector<std::vector<int32_t>>> dead_;  // [template][pc] -> slots
};

// The step function: all moves of one state.
class Explorer {
 public:
  // store and depths (each visited state's BFS depth) serve the cycle
  // proviso of partial-order reduction; null when not reducing.
  Explorer(const Model& m, const CheckOptions& o, const StateStore* store,
           const std::vector<int32_t>* depths = nullptr)
      : m_(m), o_(o), store_(store), depths_(depths), dead_(m, o.dead_variable_reduction) {}

  std::vector<int32_t> Initial() const {
    std::vector<int32_t> s = {1, 0, 0, 0, kRun};
    s.resize(s.size() + m_.templates[0].num_locals, -1);
    return s;
  }

  // Fills moves_, succ_ and bads_ with the moves of s. With por, the moves
  // of one process whose next step is local (an ample set), unless one of
  // them leads back to a visited state no deeper than s, depth: every cycle
  // of the reduced graph has such a back edge (depths cannot only grow
  // around a cycle), so every cycle keeps a fully expanded state and no
  // process is ignored forever (the cycle proviso, in its BFS form).
  // Otherwise every move.
  void Expand(const int32_t* s, int32_t n, bool por, int32_t depth = 0) {
    Parse(s, n);
    Clear();
    if (por) {
      // A go statement only when no other local step exists: a spawning
      // loop taken alone would otherwise grow the state forever while the
      // goroutines it started never run.
      int32_t p = -1;
      for (int32_t q = 0; q < nproc_; ++q) {
        if (!IsLocalAt(q)) continue;
        if (At(q).kind != InstrKind::kGo) { p = q; break; }
        if (p < 0) p = q;
      }
      if (p >= 0) {
        ExpandProc(p);
        bool ample = bads_.empty() && !cut_ && !moves_.empty();
        for (const Move& mv : moves_) {
          if (!ample) break;
          if (!store_) continue;
          Encode(succ_.data() + mv.off, static_cast<int32_t>(mv.len), &enc_);
          const uint32_t seen = store_->Find(enc_.data(), enc_.size(), HashBytes(enc_.data(), enc_.size()));
          if (seen != StateStore::kNone && (*depths_)[seen] <= depth) ample = false;
        }
        if (ample) return;
        Clear();
      }
    }
    for (int32_t p = 0; p < nproc_; ++p) ExpandProc(p);
    ExpandEnvironment();
  }

  // For a state with no moves: who is stuck and how it is reported.
  void Classify(const int32_t* s, int32_t n);

  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<Bad>& bads() const { return bads_; }
  const int32_t* Succ(const Move& mv) const { return succ_.data() + mv.off; }
  bool cut() const { return cut_; }
  bool panics() const {
    return std::any_of(bads_.begin(), bads_.end(), [](const Bad& b) { return b.move.nsteps > 0; });
  }
  const std::string& cut_reason() const { return cut_reason_; }

  // The object step st of the current state's process operates on: its
  // index in the order the model made its objects, or -1 (no object, nil,
  // or a make: the report needs objects only to pair operations).
  int32_t ObjectOf(const MoveStep& st) const;

 private:
  // --- reading the current state s_ -------------------------------------
  void Parse(const int32_t* s, int32_t n) {
    s_ = s;
    n_ = n;
    nproc_ = s[0];
    nobj_ = s[1];
    off_.resize(nproc_);
    int32_t o = kHeader;
    for (int32_t p = 0; p < nproc_; ++p) {
      off_[p] = o;
      o += kProcHeader + (s[o] < 0 ? 0 : m_.templates[s[o]].num_locals);
    }
    obase_ = o;
  }
  void Clear() {
    moves_.clear();
    succ_.clear();
    bads_.clear();
    cut_ = false;
  }
  int32_t Tmpl(int32_t p) const { return s_[off_[p]]; }
  int32_t Pc(int32_t p) const { return s_[off_[p] + 1]; }
  int32_t St(int32_t p) const { return s_[off_[p] + 2]; }
  const int32_t* Locals(int32_t p) const { return s_ + off_[p] + kProcHeader; }
  const Instr& At(int32_t p) const { return m_.templates[Tmpl(p)].code[Pc(p)]; }
  int32_t Obj(int32_t o, int32_t f) const { return s_[obase_ + o * kObjSize + f]; }
  bool IsLocalAt(int32_t p) const { return St(p) == kRun && Tmpl(p) >= 0 && IsLocalKind(At(p).kind); }

  // The object in local `slot` of p: -1 for nil, -2 (after ModelError) when
  // it is not an object of kind `want` (0: any).
  int32_t Handle(int32_t p, int32_t slot, int32_t want) {
    const int32_t h = Locals(p)[slot];
    if (h == -1) return -1;
    if (h < 0 || h >= nobj_ || (want && Obj(h, 0) != want)) {
      ModelError(p, fmt::format("local l{} = {} is not a {} handle", slot, h, want == kOChan ? "channel" : "matching object"));
      return -2;
    }
    return h;
  }
  // The Mutex or RWMutex in local `slot` of p for a lock operation (op,
  // and rop for its read form: their names in model errors), or -1 when
  // there is nothing to expand: after a nil handle's panic or a ModelError.
  [[gnu::always_inline]] int32_t LockHandle(int32_t p, int32_t slot, bool read, const char* op,
                                            const char* rop) {
    const int32_t l = Handle(p, slot, 0);
    if (l == -2) return -1;
    if (l == -1) { Panic(FindingKind::Panic, StepOf(p)); return -1; }
    const int32_t kind = Obj(l, 0);
    if (kind != kOMutex && kind != kORWMutex) { ModelError(p, fmt::format("{} of a non-lock", op)); return -1; }
    if (read && kind != kORWMutex) { ModelError(p, fmt::format("{} of a Mutex", rop)); return -1; }
    return l;
  }
  void ModelError(int32_t p, const std::string& what) {
    cut_ = true;
    if (cut_reason_.empty())
      cut_reason_ = fmt::format("model error at template {} pc {} ({}): {}", Tmpl(p), Pc(p),
                                InstrKindName(At(p).kind), what);
  }
  void Cut(const std::string& why) {
    cut_ = true;
    if (cut_reason_.empty()) cut_reason_ = why;
  }

  // Evaluates e over p's locals; false when e is unknown.
  bool Eval(const Expr& e, const int32_t* loc, int64_t* out) {
    if (e.Unknown()) return false;
    ev_.resize(e.nodes.size());
    for (size_t i = 0; i < e.nodes.size(); ++i) {
      const ExprNode& nd = e.nodes[i];
      const int64_t l = nd.lhs >= 0 ? ev_[nd.lhs] : 0, r = nd.rhs >= 0 ? ev_[nd.rhs] : 0;
      int64_t v = 0;
      switch (nd.op) {
        case ExprOp::kConst: v = nd.value; break;
        case ExprOp::kParam: v = params_[nd.index]; break;
        case ExprOp::kLocal: v = loc[nd.index]; break;
        case ExprOp::kAdd: v = l + r; break;
        case ExprOp::kSub: v = l - r; break;
        case ExprOp::kMul: v = l * r; break;
        case ExprOp::kDiv: v = r == 0 ? 0 : l / r; break;
        case ExprOp::kMod: v = r == 0 ? 0 : l % r; break;
        case ExprOp::kNeg: v = -l; break;
        case ExprOp::kLt: v = l < r; break;
        case ExprOp::kLe: v = l <= r; break;
        case ExprOp::kGt: v = l > r; break;
        case ExprOp::kGe: v = l >= r; break;
        case ExprOp::kEq: v = l == r; break;
        case ExprOp::kNe: v = l != r; break;
        case ExprOp::kAnd: v = l && r; break;
        case ExprOp::kOr: v = l || r; break;
        case ExprOp::kNot: v = !l; break;
        case ExprOp::kMin: v = std::min(l, r); break;
        case ExprOp::kMax: v = std::max(l, r); break;
      }
      ev_[i] = std::clamp<int64_t>(v, INT32_MIN / 2, INT32_MAX / 2);
    }
    *out = ev_.back();
    return true;
  }
  // The values a count may take: its value, or every unknown value.
  const std::vector<int64_t>& Counts(const Expr& e, const int32_t* loc) {
    int64_t v;
    if (Eval(e, loc, &v)) {
      one_.assign(1, v);
      return one_;
    }
    return o_.unknown_values;
  }

  // --- building a successor in w_ ---------------------------------------
  void Begin() { w_.assign(s_, s_ + n_); }
  int32_t& WP(int32_t p, int32_t f) { return w_[off_[p] + f]; }  // valid until a process is inserted
  int32_t& WL(int32_t p, int32_t slot) { return w_[off_[p] + kProcHeader + slot]; }
  int32_t& WO(int32_t o, int32_t f) { return w_[w_.size() - (w_[1] - o) * kObjSize + f]; }
  void Goto(int32_t p, int32_t pc) {
    WP(p, 1) = pc;
    WP(p, 2) = kRun;
  }
  void Next(int32_t p) { Goto(p, Pc(p) + 1); }
  // A new object at the end; its index, or -1 past max_objects.
  int32_t NewObj(int32_t kind, int32_t f1 = 0, int32_t f2 = 0, int32_t f3 = 0, int32_t f4 = 0) {
    if (w_[1] >= o_.max_objects) {
      Cut(fmt::format("more than {} objects (max_objects)", o_.max_objects));
      return -1;
    }
    const int32_t idx = w_[1]++;
    w_.insert(w_.end(), {kind, f1, f2, f3, f4, 0});
    return idx;
  }
  void CancelIn(int32_t ctx) {
    if (WO(ctx, 1)) return;
    WO(ctx, 1) = 1;
    WO(WO(ctx, 3), 3) = 1;  // its done channel closes
    // Descendants were made after their parents: one forward pass.
    for (int32_t o = ctx + 1; o < w_[1]; ++o) {
      if (WO(o, 0) == kOContext && !WO(o, 1) && WO(o, 2) >= 0 && WO(WO(o, 2), 1)) {
        WO(o, 1) = 1;
        WO(WO(o, 3), 3) = 1;
      }
    }
  }
  MoveStep StepOf(int32_t p, int32_t sc = -1) const { return MoveStep{p, Tmpl(p), Pc(p), sc}; }
  void Commit(MoveStep a, MoveStep b = {}, int32_t nsteps = 1) {
    Move mv;
    mv.step[0] = a;
    mv.step[1] = b;
    mv.nsteps = nsteps;
    ClearDeadLocals();
    mv.off = static_cast<uint32_t>(succ_.size());
    mv.len = static_cast<uint32_t>(w_.size());
    succ_.insert(succ_.end(), w_.begin(), w_.end());
    moves_.push_back(mv);
  }
  // Sets every process's dead locals in w_ to -1 (DeadLocals).
  void ClearDeadLocals() {
    int32_t o = kHeader;
    for (int32_t p = 0; p < w_[0]; ++p) {
      const int32_t t = w_[o];
      if (t < 0) {
        o += kProcHeader;
        continue;
      }
      for (int32_t slot : dead_.At(t, w_[o + 1])) w_[o + kProcHeader + slot] = -1;
      o += kProcHeader + m_.templates[t].num_locals;
    }
  }
  void Panic(FindingKind k, MoveStep a) {
    // A deferred recover() stops it: the process goes on at its function's
    // landing pad (Instr::recover). A fatal error in Go (unlock of an
    // unlocked lock: the kind's shows column says Fatal) no recover stops.
    if (report::Recoverable(k) && a.t >= 0 && a.pc >= 0) {
      const int32_t to = m_.templates[a.t].code[a.pc].recover;
      if (to >= 0) {
        Begin(); Goto(a.p, to); Commit(a);
        return;
      }
    }
    Bad b{k};
    b.move.step[0] = a;
    b.move.nsteps = 1;
    bads_.push_back(std::move(b));
  }

  // --- the moves of one process (checker_expand.cc) ------------------------
  void ExpandProc(int32_t p);
  void ExpandSend(int32_t p, int32_t ch, int32_t sc, bool* ready);
  void ExpandEnvironment();
  // ExpandProc's cases, one per instruction or family of instructions
  // (always inlined into it: this is the search's innermost loop). Each
  // gets p's instruction and its locals.
  [[gnu::always_inline]] inline void ExpandWaiting(int32_t p, int32_t status, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandBranch(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandAssign(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandMakeChan(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandMakeSync(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandMakeCond(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandMakeContext(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandMakeTimer(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandMakeVar(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandCtxDone(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandCancel(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandStopTimer(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandRecv(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandClose(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandSelect(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandLock(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandUnlock(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandTryLock(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandWgAdd(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandWgWait(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandLoadVar(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandStoreVar(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandOnce(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandCondWait(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandCondWake(int32_t p, const Instr& in);
  [[gnu::always_inline]] inline void ExpandGo(int32_t p, const Instr& in, const int32_t* loc);
  [[gnu::always_inline]] inline void ExpandEnd(int32_t p);
  // Lock acquisition shared by Lock and a Cond's relock; false when blocked.
  bool TryAcquire(int32_t p, int32_t lock, bool read);
  // Releases; false (and a violation) when the lock is not held.
  bool Release(int32_t p, int32_t lock, bool read);

  // --- stuck states (checker_stuck.cc) ---------------------------------------
  // Who p waits for on a lock (-1: no lock wait or nobody known).
  int32_t LockWaitsFor(int32_t p) const;
  Primitive BlockedOn(int32_t p) const;
  bool DoubleLocked(int32_t p) const;

  friend class gordian::verify::Stepper;  // reads the current state

  const Model& m_;
  const CheckOptions& o_;
  const StateStore* store_;
  const std::vector<int32_t>* depths_;
  const DeadLocals dead_;

 public:
  std::vector<int64_t> params_;

 private:
  const int32_t* s_ = nullptr;
  int32_t n_ = 0, nproc_ = 0, nobj_ = 0, obase_ = 0;
  std::vector<int32_t> off_;
  std::vector<int32_t> w_, rec_;
  std::vector<uint8_t> enc_;
  std::vector<int64_t> ev_, one_;
  std::vector<Move> moves_;
  std::vector<int32_t> succ_;
  std::vector<Bad> bads_;
  bool cut_ = false;
  std::string cut_reason_;
};

// --- counterexamples (checker_counterexample.cc) ---------------------------

// `at` is an explorer positioned at the state the step is taken from.
CheckStep ToStep(const MoveStep& s, bool blocks, const Explorer& at);
void AppendMove(const Move& mv, const Explorer& at, std::vector<CheckStep>* out);
// The identity of a violation: its kind and its sorted distinct positions.
std::string KeyOf(const Bad& b);
// Cheap identity for the hot loop (KeyOf only for new ones): order-free.
uint64_t KeyHash(const Bad& b);
// `at` is the explorer positioned at the state b was seen in.
Violation MakeViolation(const Bad& b, std::vector<CheckStep> path, const Explorer& at);

// --- the search (checker.cc) -------------------------------------------------

// Checks m and o and fills params; false with *error when they do not fit.
bool Prepare(const Model& m, const CheckOptions& o, std::vector<int64_t>* params, std::string* error);

}  // namespace gordian::verify::checker_internal
