// This file (tests and bench/ only) owns the shorthand the verify tests and
// the benchmarks write models in (an instruction in one call, a template
// from a list of them) and the generated models the benchmarks scale.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gordian/verify/model.h"

namespace gordian::verify::testing {

inline Instr I(InstrKind k, int32_t a = -1, int32_t b = -1, int32_t c = -1, Expr e = {}) {
  Instr in;
  in.kind = k;
  in.a = a;
  in.b = b;
  in.c = c;
  in.expr = std::move(e);
  in.text = std::string(InstrKindName(k));
  return in;
}

inline Instr Go(int32_t templ, std::vector<int32_t> args) {
  Instr in = I(InstrKind::kGo, -1, templ);
  in.args = std::move(args);
  return in;
}

inline Instr Choice(std::vector<int32_t> targets) {
  Instr in = I(InstrKind::kChoice);
  in.targets = std::move(targets);
  return in;
}

inline SelectCase Case(bool send, int32_t chan, int32_t target, int32_t ok = -1) {
  SelectCase c;
  c.send = send;
  c.chan = chan;
  c.target = target;
  c.ok = ok;
  return c;
}

inline Instr Select(std::vector<SelectCase> cases, int32_t default_target = -1) {
  Instr in = I(InstrKind::kSelect, default_target);
  in.cases = std::move(cases);
  return in;
}

// lhs op rhs as one expression.
inline Expr Bin(ExprOp op, const Expr& lhs, const Expr& rhs) {
  Expr e = lhs;
  const int32_t l = static_cast<int32_t>(e.nodes.size()) - 1;
  for (ExprNode n : rhs.nodes) {
    if (n.lhs >= 0) n.lhs += l + 1;
    if (n.rhs >= 0) n.rhs += l + 1;
    e.nodes.push_back(n);
  }
  ExprNode root;
  root.op = op;
  root.lhs = l;
  root.rhs = static_cast<int32_t>(e.nodes.size()) - 1;
  e.nodes.push_back(root);
  return e;
}

inline Template T(std::string name, int32_t locals, std::vector<Instr> code, bool environment = false) {
  Template t;
  t.name = std::move(name);
  t.num_locals = locals;
  t.code = std::move(code);
  t.environment = environment;
  // Positions: line = template index * 100 + pc, set by M below.
  return t;
}

// A model of these templates; each instruction gets the position
// file 0, line 100 * template + pc + 1 so counterexamples can be compared.
inline Model M(std::vector<Template> templates, std::vector<Parameter> params = {}) {
  Model m;
  m.entry = "test.Entry";
  m.files = {"test.go"};
  m.params = std::move(params);
  m.templates = std::move(templates);
  for (size_t t = 0; t < m.templates.size(); ++t)
    for (size_t pc = 0; pc < m.templates[t].code.size(); ++pc)
      m.templates[t].code[pc].pos = ir::Pos{0, static_cast<int>(100 * t + pc + 1), 1};
  return m;
}

// --- Generated models of growing size (bench/verify_perftest, bench/
// spin_compare_perftest and the SPIN cross-check) ---------------------------
//   ProdCons(K, M, C)   K producers and K consumers, M items each, through a
//                       channel of capacity C; main waits on a WaitGroup
//   Workers(N, M)       N workers, each M times: Lock, a local update, Unlock;
//                       a WaitGroup
//   Philosophers(N)     N philosophers, fork i then fork i+1: a lock-order
//                       deadlock

inline Expr C(int64_t v) { return Expr::Const(v); }

// A loop `for l[i] = 0; l[i] < m; l[i]++ { body }` appended to code.
inline void Loop(std::vector<Instr>* code, int32_t i, int64_t m, const std::vector<Instr>& body) {
  code->push_back(I(InstrKind::kAssign, i, -1, -1, C(0)));
  const int32_t head = static_cast<int32_t>(code->size());
  const int32_t exit = head + 1 + static_cast<int32_t>(body.size()) + 2;
  code->push_back(I(InstrKind::kBranch, head + 1, exit, -1, Bin(ExprOp::kLt, Expr::Local(i), C(m))));
  code->insert(code->end(), body.begin(), body.end());
  code->push_back(I(InstrKind::kAssign, i, -1, -1, Bin(ExprOp::kAdd, Expr::Local(i), C(1))));
  code->push_back(I(InstrKind::kJump, head));
}

inline Model ProdCons(int k, int m, int cap) {
  std::vector<Instr> main = {I(InstrKind::kMakeChan, 0, -1, -1, C(cap)), I(InstrKind::kMakeWaitGroup, 1),
                             I(InstrKind::kWgAdd, 1, -1, -1, C(2 * k))};
  for (int i = 0; i < k; ++i) {
    main.push_back(Go(1, {0, 1}));
    main.push_back(Go(2, {0, 1}));
  }
  main.push_back(I(InstrKind::kWgWait, 1));
  main.push_back(I(InstrKind::kEnd));
  std::vector<Instr> prod, cons;
  Loop(&prod, 2, m, {I(InstrKind::kSend, 0)});
  Loop(&cons, 2, m, {I(InstrKind::kRecv, 0)});
  for (auto* c : {&prod, &cons}) {
    c->push_back(I(InstrKind::kWgAdd, 1, -1, -1, C(-1)));
    c->push_back(I(InstrKind::kEnd));
  }
  return M({T("main", 2, main), T("producer", 3, prod), T("consumer", 3, cons)});
}

inline Model Workers(int n, int m) {
  std::vector<Instr> main = {I(InstrKind::kMakeMutex, 0), I(InstrKind::kMakeWaitGroup, 1), I(InstrKind::kWgAdd, 1, -1, -1, C(n))};
  for (int i = 0; i < n; ++i) main.push_back(Go(1, {0, 1}));
  main.push_back(I(InstrKind::kWgWait, 1));
  main.push_back(I(InstrKind::kEnd));
  std::vector<Instr> w = {I(InstrKind::kAssign, 3, -1, -1, C(0))};
  Loop(&w, 2, m,
       {I(InstrKind::kLock, 0), I(InstrKind::kAssign, 3, -1, -1, Bin(ExprOp::kAdd, Expr::Local(3), C(1))), I(InstrKind::kUnlock, 0)});
  w.push_back(I(InstrKind::kWgAdd, 1, -1, -1, C(-1)));
  w.push_back(I(InstrKind::kEnd));
  return M({T("main", 2, main), T("worker", 4, w)});
}

inline Model Philosophers(int n) {
  std::vector<Instr> main;
  for (int i = 0; i < n; ++i) main.push_back(I(InstrKind::kMakeMutex, i));
  main.push_back(I(InstrKind::kMakeWaitGroup, n));
  main.push_back(I(InstrKind::kWgAdd, n, -1, -1, C(n)));
  for (int i = 0; i < n; ++i) main.push_back(Go(1, {i, (i + 1) % n, n}));
  main.push_back(I(InstrKind::kWgWait, n));
  main.push_back(I(InstrKind::kEnd));
  return M({T("main", n + 1, main),
            T("philosopher", 3, {I(InstrKind::kLock, 0), I(InstrKind::kLock, 1), I(InstrKind::kNop), I(InstrKind::kUnlock, 1), I(InstrKind::kUnlock, 0),
                                 I(InstrKind::kWgAdd, 2, -1, -1, C(-1)), I(InstrKind::kEnd)})});
}

}  // namespace gordian::verify::testing
