// This file owns the grouping of node kinds into families: expressions,
// types, statements, and declarations with the File. GORDIAN_NODE_KINDS
// lists the kinds family by family, so a family is a range of NodeKind.
// Code with a case for every kind (walk, dump, equal) dispatches on the
// family first and keeps one function per family.
#pragma once

#include <cstdint>

#include "gordian/syntax/nodes.h"

namespace gordian::syntax {

enum class NodeFamily : uint8_t { Expr, Type, Stmt, Decl };

static_assert(NodeKind::BadExpr < NodeKind::ListExpr && NodeKind::ListExpr < NodeKind::ArrayType &&
                  NodeKind::ArrayType < NodeKind::ChanType &&
                  NodeKind::ChanType < NodeKind::EmptyStmt &&
                  NodeKind::EmptyStmt < NodeKind::CommClause &&
                  NodeKind::CommClause < NodeKind::ImportDecl &&
                  NodeKind::ImportDecl < NodeKind::FuncDecl && NodeKind::FuncDecl < NodeKind::File,
              "GORDIAN_NODE_KINDS must list the kinds family by family");

// The family of k. Clauses (RangeClause, CaseClause, CommClause) are
// statements; the File (and Count_) count as declarations.
inline NodeFamily FamilyOf(NodeKind k) {
  if (k < NodeKind::ArrayType) return NodeFamily::Expr;
  if (k < NodeKind::EmptyStmt) return NodeFamily::Type;
  if (k < NodeKind::ImportDecl) return NodeFamily::Stmt;
  return NodeFamily::Decl;
}

}  // namespace gordian::syntax
