// This file owns the model checker's dead-variable reduction
// (checker_internal.h, DeadLocals): per template and pc, the locals no path
// reads again before writing them, by a backward liveness fixpoint over
// the template's code, computed once per check.
#include <algorithm>

#include "gordian/verify/checker_internal.h"

namespace gordian::verify::checker_internal {

void DeadLocals::Reads(const Instr& in, std::vector<int32_t>* out) {
  for (const ExprNode& n : in.expr.nodes)
    if (n.op == ExprOp::kLocal) out->push_back(n.index);
  switch (in.kind) {
    case InstrKind::kMakeCond: case InstrKind::kCtxDone: case InstrKind::kLoadVar: out->push_back(in.b); break;
    case InstrKind::kStoreVar: out->push_back(in.a); break;
    case InstrKind::kMakeContext: if (in.b >= 0) out->push_back(in.b); break;
    case InstrKind::kCancel: case InstrKind::kStopTimer: case InstrKind::kSend: case InstrKind::kClose:
    case InstrKind::kRecv: case InstrKind::kLock: case InstrKind::kUnlock: case InstrKind::kRLock:
    case InstrKind::kRUnlock: case InstrKind::kTryLock: case InstrKind::kWgAdd: case InstrKind::kWgWait:
    case InstrKind::kOnceBegin: case InstrKind::kOnceEnd: case InstrKind::kCondWait:
    case InstrKind::kCondSignal: case InstrKind::kCondBroadcast:
      out->push_back(in.a);
      break;
    case InstrKind::kSelect:
      for (const SelectCase& c : in.cases) out->push_back(c.chan);
      break;
    case InstrKind::kGo:
      out->insert(out->end(), in.args.begin(), in.args.end());
      break;
    default: break;
  }
}

void DeadLocals::Writes(const Instr& in, std::vector<int32_t>* out) {
  switch (in.kind) {
    case InstrKind::kAssign: case InstrKind::kMakeChan: case InstrKind::kMakeMutex:
    case InstrKind::kMakeRWMutex: case InstrKind::kMakeWaitGroup: case InstrKind::kMakeOnce:
    case InstrKind::kMakeCond: case InstrKind::kMakeContext: case InstrKind::kCtxDone: case InstrKind::kMakeTimer:
    case InstrKind::kMakeVar: case InstrKind::kLoadVar:
      out->push_back(in.a);
      break;
    case InstrKind::kRecv: case InstrKind::kTryLock:
      if (in.b >= 0) out->push_back(in.b);
      break;
    default: break;
  }
}

void DeadLocals::Successors(const Instr& in, int32_t pc, std::vector<int32_t>* out) {
  switch (in.kind) {
    case InstrKind::kJump: out->push_back(in.a); break;
    case InstrKind::kBranch: out->push_back(in.a); out->push_back(in.b); break;
    case InstrKind::kChoice: *out = in.targets; break;
    case InstrKind::kSelect:
      for (const SelectCase& c : in.cases) out->push_back(c.target);
      if (in.a >= 0) out->push_back(in.a);
      break;
    case InstrKind::kOnceBegin: out->push_back(pc + 1); out->push_back(in.b); break;
    case InstrKind::kEnd: case InstrKind::kPanic: break;
    default: out->push_back(pc + 1); break;
  }
  if (in.recover >= 0) out->push_back(in.recover);
}

void DeadLocals::Compute(const Template& t, std::vector<std::vector<int32_t>>* dead) {
  const int32_t n = static_cast<int32_t>(t.code.size()), L = t.num_locals;
  if (L == 0) {
    dead->assign(n, {});
    return;
  }
  std::vector<std::vector<int32_t>> reads(n), writes(n), succ(n);
  for (int32_t pc = 0; pc < n; ++pc) {
    Reads(t.code[pc], &reads[pc]);
    Writes(t.code[pc], &writes[pc]);
    Successors(t.code[pc], pc, &succ[pc]);
  }
  std::vector<std::vector<uint8_t>> live(n, std::vector<uint8_t>(L, 0));
  std::vector<uint8_t> out(L);
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t pc = n - 1; pc >= 0; --pc) {
      std::fill(out.begin(), out.end(), 0);
      for (int32_t q : succ[pc])
        for (int32_t i = 0; i < L; ++i) out[i] |= live[q][i];
      // An assignment to a local that is dead after it reads nothing
      // (strong liveness): a counter that only feeds itself (n = n + 1
      // in a loop over data the model does not track) is then dead
      // throughout, and the loop is a few states, not a new state per
      // iteration up to max_depth (utf8.RuneCount in the GOROOT run).
      const Instr& in = t.code[pc];
      const bool faint = in.kind == InstrKind::kAssign && in.a >= 0 && in.a < L && !out[in.a];
      for (int32_t w : writes[pc]) out[w] = 0;
      if (!faint)
        for (int32_t r : reads[pc]) out[r] = 1;
      if (out != live[pc]) {
        live[pc] = out;
        changed = true;
      }
    }
  }
  dead->assign(n, {});
  for (int32_t pc = 0; pc < n; ++pc)
    for (int32_t i = 0; i < L; ++i)
      if (!live[pc][i]) (*dead)[pc].push_back(i);
}

}  // namespace gordian::verify::checker_internal
