// This file (tests and bench/verify_perftest only) owns the shorthand the
// verify tests and the benchmark write models in: an instruction in one
// call, a template from a list of them.
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

}  // namespace gordian::verify::testing
