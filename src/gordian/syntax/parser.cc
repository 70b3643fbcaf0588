// This file implements the Go parser: Parse turns one SourceFile into a File.
//
// The structure follows Go's cmd/compile/internal/syntax/parser.go closely
// (method names, error messages, follow lists and the composite-literal
// ambiguity rule are the same), with these differences:
// - Every node records begin/end (its byte extent) besides pos.
// - Parentheses are always kept as ParenExpr (also around types), so the
//   tree reproduces the source exactly; Go's parser drops most of them.
// - Lists are built on a reusable scratch stack and copied into the arena
//   when complete: no per-list heap allocation.
// - Nesting depth is limited ("exceeded max nesting depth") so that no input
//   can overflow the stack.
// - gc's rule "at most one syntax error per line" is applied here, so that
//   the handler sees what the Go compiler would print.
//
// Positions. pos is the identifying token as in Go's syntax package (the
// operator of an Operation, "(" of a call, ":" of a LabeledStmt, ":=" or "="
// of an AssignStmt, "range" of a RangeClause, the first name of a spec),
// except FuncDecl.pos, which is the "func" keyword. Extents (begin/end) equal
// go/ast's Pos()/End() wherever both trees have the node (checked over
// GOROOT/src by goroot_test.cc), and:
// - an ungrouped declaration starts at its keyword ("var x int"); a grouped
//   one is just its spec ("x int"), the Group giving the parentheses;
// - a FuncDecl's FuncType starts at the "(" of its parameters;
// - of fields declared together (`a, b int "tag"`), which share one type
//   and tag, each but the last covers just its name ("a"), and the last one
//   its name through the type and tag ("b int "tag"");
// - a TypeSwitchGuard spans its lhs (`y := x.(type)`);
// - an EmptyStmt covers an explicit ";", and is zero-width otherwise;
// - a node made after a syntax error is zero-width at the token where the
//   error was found, and lies inside its parents (their extent grows to it).
//
// Excluding methods returning lists, parse methods named …OrNull may return
// null; all others return a valid node (BadExpr where parsing failed).
//
// The parser is split by concern: this file has the entry point and the
// text of expressions in error messages; parser_decls.cc the package clause
// and the declarations, parser_exprs.cc the expressions, parser_types.cc
// the types, parser_stmts.cc the statements, and parser_internal.h the
// Parser class they share.
#include "gordian/syntax/parser_internal.h"
#include "gordian/syntax/stack_guard.h"

namespace gordian::syntax::parser_internal {
namespace {

// The stack budget of the calling thread, measured from here. The thread's
// stack bounds are cached per thread (StackBottom): querying them costs more
// than parsing a small file.
uintptr_t StackBudget() {
  uintptr_t budget = kMaxStackBytes;
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t lo = StackBottom();
  if (lo != 0 && here > lo) budget = std::min(budget, (here - lo) / 4 * 3);
  return budget;
}

}  // namespace

// ----------------------------------------------------------------------------
// Error message text

// exprString formats x the way Go's syntax.String does for the common
// forms (binary operators spaced, lists comma-separated); anything else is
// quoted from the source. Only error messages use it.
std::string Parser::exprString(const Expr* x, int depth) const {
  if (x == nullptr) return "";
  if (depth > 50) return std::string(text(x));
  auto str = [&](const Expr* e) { return exprString(e, depth + 1); };
  auto join = [&](std::span<Expr* const> l) {
    std::string out;
    for (size_t i = 0; i < l.size(); i++) out += (i > 0 ? ", " : "") + str(l[i]);
    return out;
  };
  switch (x->kind) {
    case NodeKind::Name: return std::string(static_cast<const Name*>(x)->value);
    case NodeKind::BasicLit: return std::string(static_cast<const BasicLit*>(x)->value);
    case NodeKind::ParenExpr: return fmt::format("({})", str(static_cast<const ParenExpr*>(x)->x));
    case NodeKind::SelectorExpr: {
      auto* s = static_cast<const SelectorExpr*>(x);
      return str(s->x) + "." + str(s->sel);
    }
    case NodeKind::IndexExpr: {
      auto* ix = static_cast<const IndexExpr*>(x);
      return str(ix->x) + "[" + str(ix->index) + "]";
    }
    case NodeKind::ListExpr: return join(static_cast<const ListExpr*>(x)->elems);
    case NodeKind::CallExpr: {
      auto* c = static_cast<const CallExpr*>(x);
      return str(c->fun) + "(" + join(c->args) + (c->has_dots ? "...)" : ")");
    }
    case NodeKind::KeyValueExpr: {
      auto* kv = static_cast<const KeyValueExpr*>(x);
      return str(kv->key) + ": " + str(kv->value);
    }
    case NodeKind::Operation: {
      auto* op = static_cast<const Operation*>(x);
      if (op->y == nullptr) return std::string(OpString(op->op)) + str(op->x);
      return str(op->x) + " " + std::string(OpString(op->op)) + " " + str(op->y);
    }
    default:
      return std::string(text(x));
  }
}

// emphasize returns the string of x, with (top-level) binary expressions
// enclosed in parentheses.
std::string Parser::emphasize(const Expr* x) const {
  auto* op = As<Operation>(x);
  if (op != nullptr && op->y != nullptr) return fmt::format("({})", exprString(x));
  return exprString(x);
}

// stmtString formats the simple statements that can end up in a header.
std::string Parser::stmtString(const SimpleStmt* s) const {
  if (auto* a = As<AssignStmt>(s)) {
    if (a->rhs == nullptr) return exprString(a->lhs) + std::string(OpString(a->op)) + std::string(OpString(a->op));
    std::string op = a->op == Op::Def ? ":=" : std::string(OpString(a->op)) + "=";
    return exprString(a->lhs) + " " + op + " " + exprString(a->rhs);
  }
  if (auto* snd = As<SendStmt>(s)) return exprString(snd->chan) + " <- " + exprString(snd->value);
  return std::string(text(s));
}

// ----------------------------------------------------------------------------
// Running the parser

ParseResult Parser::Run() {
  stack_base_ = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  stack_budget_ = StackBudget();
  prev_end_ = src_.base();
  scratch_.reserve(256);
  s_.Next();
  File* f = file();
  f->comments = arena_->Copy(comments_.data(), comments_.size());
  ParseResult r;
  r.file = f;
  r.error_count = error_count_;
  r.first_error = first_;
  return r;
}

}  // namespace gordian::syntax::parser_internal

namespace gordian::syntax {

ParseResult Parse(const SourceFile& src, Arena* arena, const ErrorHandler& errh, unsigned mode) {
  parser_internal::Parser p(src, arena, errh, mode);
  return p.Run();
}

}  // namespace gordian::syntax
