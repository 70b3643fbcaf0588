// This file defines the Go abstract syntax tree: one struct per source form.
//
// Conventions (after Go's cmd/compile/internal/syntax/nodes.go):
// - Every node records three positions: `pos`, its identifying token (the
//   operator of a binary expression, the `[` of an index, the `(` of a call,
//   the keyword of a statement), which is what diagnostics point at; and
//   `begin`/`end`, the byte extent of its source text (end is one past the
//   last byte), which rewriting uses to splice source.
// - Nodes live in an Arena and are trivially destructible. Lists are spans of
//   node pointers allocated in the same arena.
// - A field comment "nil means …" marks every optional field; all other
//   pointer fields are never null (a subtree that fails to parse is BadExpr).
// - Node kinds are dense; use As<T>(n) / Is<T>(n) to test and cast.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "gordian/syntax/source.h"
#include "gordian/syntax/tokens.h"

namespace gordian::syntax {

template <class T>
using List = std::span<T*>;

#define GORDIAN_NODE_KINDS(X) \
  /* expressions */           \
  X(BadExpr)                  \
  X(Name)                     \
  X(BasicLit)                 \
  X(CompositeLit)             \
  X(KeyValueExpr)             \
  X(FuncLit)                  \
  X(ParenExpr)                \
  X(SelectorExpr)             \
  X(IndexExpr)                \
  X(SliceExpr)                \
  X(AssertExpr)               \
  X(TypeSwitchGuard)          \
  X(Operation)                \
  X(CallExpr)                 \
  X(ListExpr)                 \
  /* types */                 \
  X(ArrayType)                \
  X(SliceType)                \
  X(DotsType)                 \
  X(StructType)               \
  X(Field)                    \
  X(InterfaceType)            \
  X(FuncType)                 \
  X(MapType)                  \
  X(ChanType)                 \
  /* statements */            \
  X(EmptyStmt)                \
  X(LabeledStmt)              \
  X(BlockStmt)                \
  X(ExprStmt)                 \
  X(SendStmt)                 \
  X(DeclStmt)                 \
  X(AssignStmt)               \
  X(BranchStmt)               \
  X(CallStmt)                 \
  X(ReturnStmt)               \
  X(IfStmt)                   \
  X(ForStmt)                  \
  X(SwitchStmt)               \
  X(SelectStmt)               \
  X(RangeClause)              \
  X(CaseClause)               \
  X(CommClause)               \
  /* declarations */          \
  X(ImportDecl)               \
  X(ConstDecl)                \
  X(TypeDecl)                 \
  X(VarDecl)                  \
  X(FuncDecl)                 \
  /* file */                  \
  X(File)

enum class NodeKind : uint8_t {
#define X(name) name,
  GORDIAN_NODE_KINDS(X)
#undef X
      Count_
};

std::string_view NodeKindName(NodeKind k);

struct Node {
  NodeKind kind;
  Pos pos = kNoPos;    // identifying token
  Pos begin = kNoPos;  // first byte of the node's text
  Pos end = kNoPos;    // one past the last byte

  explicit Node(NodeKind k) : kind(k) {}
};

template <class T>
inline bool Is(const Node* n) {
  return n != nullptr && n->kind == T::kKind;
}
template <class T>
inline T* As(Node* n) {
  return Is<T>(n) ? static_cast<T*>(n) : nullptr;
}
template <class T>
inline const T* As(const Node* n) {
  return Is<T>(n) ? static_cast<const T*>(n) : nullptr;
}

#define GORDIAN_NODE(name, base) \
  static constexpr NodeKind kKind = NodeKind::name; \
  name() : base(kKind) {}

// ----------------------------------------------------------------------------
// Expressions

struct Expr : Node {
  using Node::Node;
};

// Placeholder for an expression that failed to parse.
struct BadExpr : Expr {
  GORDIAN_NODE(BadExpr, Expr)
};

// value
struct Name : Expr {
  GORDIAN_NODE(Name, Expr)
  std::string_view value;
};

// value (the literal exactly as written, quotes and prefixes included)
struct BasicLit : Expr {
  GORDIAN_NODE(BasicLit, Expr)
  std::string_view value;
  LitKind lit_kind = LitKind::Int;
  bool bad = false;  // true means the literal has a syntax error
};

// Type { ElemList[0], ElemList[1], ... }
struct CompositeLit : Expr {
  GORDIAN_NODE(CompositeLit, Expr)
  Expr* type = nullptr;  // nil means no literal type (elided inside another literal)
  List<Expr> elems;
  uint32_t nkeys = 0;    // number of KeyValueExpr elements
  Pos rbrace = kNoPos;
};

// Key: Value
struct KeyValueExpr : Expr {
  GORDIAN_NODE(KeyValueExpr, Expr)
  Expr* key = nullptr;
  Expr* value = nullptr;
};

// func Type { Body }
struct FuncType;
struct BlockStmt;
struct FuncLit : Expr {
  GORDIAN_NODE(FuncLit, Expr)
  FuncType* type = nullptr;
  BlockStmt* body = nullptr;
};

// (X)
struct ParenExpr : Expr {
  GORDIAN_NODE(ParenExpr, Expr)
  Expr* x = nullptr;
};

// X.Sel
struct SelectorExpr : Expr {
  GORDIAN_NODE(SelectorExpr, Expr)
  Expr* x = nullptr;
  Name* sel = nullptr;
};

// X[Index]
// X[T1, T2, ...] (generic instantiation: index is a ListExpr)
struct IndexExpr : Expr {
  GORDIAN_NODE(IndexExpr, Expr)
  Expr* x = nullptr;
  Expr* index = nullptr;
};

// X[Index[0] : Index[1] : Index[2]]
struct SliceExpr : Expr {
  GORDIAN_NODE(SliceExpr, Expr)
  Expr* x = nullptr;
  Expr* index[3] = {nullptr, nullptr, nullptr};  // each: nil means absent
  bool full = false;  // true means 3-index slice (index[1] and index[2] set)
};

// X.(Type)
struct AssertExpr : Expr {
  GORDIAN_NODE(AssertExpr, Expr)
  Expr* x = nullptr;
  Expr* type = nullptr;
};

// [Lhs :=] X.(type)   (only as the tag of a type switch)
struct TypeSwitchGuard : Expr {
  GORDIAN_NODE(TypeSwitchGuard, Expr)
  Name* lhs = nullptr;  // nil means no Lhs :=
  Expr* x = nullptr;    // the X in X.(type)
};

// Op X       (unary: y == nil; Op is Not, Recv, Tilde, Add, Sub, Xor, Mul, And)
// X Op Y     (binary)
// *X         (pointer indirection or pointer type: op == Mul, y == nil)
struct Operation : Expr {
  GORDIAN_NODE(Operation, Expr)
  Op op = Op::None;
  Expr* x = nullptr;
  Expr* y = nullptr;  // nil means unary expression
};

// Fun(Args[0], Args[1], ...)
struct CallExpr : Expr {
  GORDIAN_NODE(CallExpr, Expr)
  Expr* fun = nullptr;
  List<Expr> args;
  bool has_dots = false;  // last argument is followed by ...
  Pos rparen = kNoPos;
};

// Elems[0], Elems[1], ...
struct ListExpr : Expr {
  GORDIAN_NODE(ListExpr, Expr)
  List<Expr> elems;
};

// ----------------------------------------------------------------------------
// Types

// [Len]Elem
struct ArrayType : Expr {
  GORDIAN_NODE(ArrayType, Expr)
  Expr* len = nullptr;  // nil means [...]Elem (only in a composite literal)
  Expr* elem = nullptr;
};

// []Elem
struct SliceType : Expr {
  GORDIAN_NODE(SliceType, Expr)
  Expr* elem = nullptr;
};

// ...Elem (final parameter type)
struct DotsType : Expr {
  GORDIAN_NODE(DotsType, Expr)
  Expr* elem = nullptr;
};

// Name Type  or  Type (embedded, anonymous parameter or result)
// Fields declared together (`a, b int`) share the same `type` pointer; the
// printer uses that to keep the grouping.
struct Field : Node {
  GORDIAN_NODE(Field, Node)
  Name* name = nullptr;  // nil means anonymous field, parameter or embedded type
  Expr* type = nullptr;  // nil only for a name in a type parameter list being parsed
};

// struct { FieldList[0] TagList[0]; FieldList[1] TagList[1]; ... }
struct StructType : Expr {
  GORDIAN_NODE(StructType, Expr)
  List<Field> fields;
  List<BasicLit> tags;  // empty means no tags; else one per field, nil means none
};

// interface { MethodList[0]; MethodList[1]; ... }
// A method has a name and a FuncType; an embedded element (type or union,
// as in ~int | string) has no name.
struct InterfaceType : Expr {
  GORDIAN_NODE(InterfaceType, Expr)
  List<Field> methods;
};

// func(ParamList) ResultList
struct FuncType : Expr {
  GORDIAN_NODE(FuncType, Expr)
  List<Field> params;
  List<Field> results;
};

// map[Key]Value
struct MapType : Expr {
  GORDIAN_NODE(MapType, Expr)
  Expr* key = nullptr;
  Expr* value = nullptr;
};

//   chan Elem
// <-chan Elem
// chan<- Elem
struct ChanType : Expr {
  GORDIAN_NODE(ChanType, Expr)
  ChanDir dir = ChanDir::Both;
  Expr* elem = nullptr;
};

// ----------------------------------------------------------------------------
// Statements

struct Stmt : Node {
  using Node::Node;
};

// The statements allowed in init and post positions (if, for, switch) and as
// a select case's communication.
struct SimpleStmt : Stmt {
  using Stmt::Stmt;
};

// ;  (an empty statement; also what a missing init or post becomes: nil)
struct EmptyStmt : SimpleStmt {
  GORDIAN_NODE(EmptyStmt, SimpleStmt)
};

// Label: Stmt
struct LabeledStmt : Stmt {
  GORDIAN_NODE(LabeledStmt, Stmt)
  Name* label = nullptr;
  Stmt* stmt = nullptr;  // may be EmptyStmt
};

// { List }
struct BlockStmt : Stmt {
  GORDIAN_NODE(BlockStmt, Stmt)
  List<Stmt> list;
  Pos rbrace = kNoPos;
};

// X
struct ExprStmt : SimpleStmt {
  GORDIAN_NODE(ExprStmt, SimpleStmt)
  Expr* x = nullptr;
};

// Chan <- Value
struct SendStmt : SimpleStmt {
  GORDIAN_NODE(SendStmt, SimpleStmt)
  Expr* chan = nullptr;
  Expr* value = nullptr;
};

struct Decl;
// const/type/var declarations inside a function body
struct DeclStmt : Stmt {
  GORDIAN_NODE(DeclStmt, Stmt)
  List<Decl> decls;
};

// Lhs = Rhs      (op == None)
// Lhs := Rhs     (op == Def)
// Lhs op= Rhs    (op is the binary operator)
// Lhs++, Lhs--   (op == Add or Sub, rhs == nil)
// Lhs and Rhs are ListExpr when there are several.
struct AssignStmt : SimpleStmt {
  GORDIAN_NODE(AssignStmt, SimpleStmt)
  Op op = Op::None;
  Expr* lhs = nullptr;
  Expr* rhs = nullptr;  // nil means Lhs++ or Lhs--
};

// break/continue/goto/fallthrough [Label]
struct BranchStmt : Stmt {
  GORDIAN_NODE(BranchStmt, Stmt)
  Token tok = Token::Break;  // Break, Continue, Goto or Fallthrough
  Name* label = nullptr;     // nil means no label
};

// go Call, defer Call
struct CallStmt : Stmt {
  GORDIAN_NODE(CallStmt, Stmt)
  Token tok = Token::Go;  // Go or Defer
  Expr* call = nullptr;   // a CallExpr unless the source is in error
};

// return Results
struct ReturnStmt : Stmt {
  GORDIAN_NODE(ReturnStmt, Stmt)
  Expr* results = nullptr;  // nil means no results; ListExpr when several
};

// if Init; Cond { Then } else Else
struct IfStmt : Stmt {
  GORDIAN_NODE(IfStmt, Stmt)
  SimpleStmt* init = nullptr;  // nil means no init statement
  Expr* cond = nullptr;        // nil only after a syntax error
  BlockStmt* then = nullptr;
  Stmt* else_ = nullptr;  // nil means no else; else an IfStmt or a BlockStmt
};

// for Init; Cond; Post { Body }
// for Init { Body }            (init is a RangeClause: for range loops)
struct ForStmt : Stmt {
  GORDIAN_NODE(ForStmt, Stmt)
  SimpleStmt* init = nullptr;  // nil means none; a RangeClause for range loops
  Expr* cond = nullptr;        // nil means none (forever)
  SimpleStmt* post = nullptr;  // nil means none
  BlockStmt* body = nullptr;
};

// Lhs = range X, Lhs := range X, range X
struct RangeClause : SimpleStmt {
  GORDIAN_NODE(RangeClause, SimpleStmt)
  Expr* lhs = nullptr;  // nil means no Lhs; ListExpr for two variables
  bool def = false;     // true means :=
  Expr* x = nullptr;    // the range expression
};

struct CaseClause;
struct CommClause;

// switch Init; Tag { Body }
struct SwitchStmt : Stmt {
  GORDIAN_NODE(SwitchStmt, Stmt)
  SimpleStmt* init = nullptr;  // nil means no init statement
  Expr* tag = nullptr;         // nil means no tag; TypeSwitchGuard for type switches
  List<CaseClause> body;
  Pos rbrace = kNoPos;
};

// select { Body }
struct SelectStmt : Stmt {
  GORDIAN_NODE(SelectStmt, Stmt)
  List<CommClause> body;
  Pos rbrace = kNoPos;
};

// case Cases: Body   or   default: Body
struct CaseClause : Node {
  GORDIAN_NODE(CaseClause, Node)
  Expr* cases = nullptr;  // nil means default; ListExpr for several values
  List<Stmt> body;
  Pos colon = kNoPos;
};

// case Comm: Body   or   default: Body
struct CommClause : Node {
  GORDIAN_NODE(CommClause, Node)
  SimpleStmt* comm = nullptr;  // nil means default; SendStmt, ExprStmt (<-c) or AssignStmt
  List<Stmt> body;
  Pos colon = kNoPos;
};

// ----------------------------------------------------------------------------
// Declarations

// A parenthesized declaration group: all decls of one `var ( ... )` share it.
struct Group {
  Pos lparen = kNoPos;
  Pos rparen = kNoPos;
};

struct Decl : Node {
  using Node::Node;
  Group* group = nullptr;  // nil means not part of a group
};

//              Path
// LocalPkgName Path
struct ImportDecl : Decl {
  GORDIAN_NODE(ImportDecl, Decl)
  Name* local_pkg_name = nullptr;  // nil means no local name (may be "." or "_")
  BasicLit* path = nullptr;
};

// NameList
// NameList      = Values
// NameList Type = Values
struct ConstDecl : Decl {
  GORDIAN_NODE(ConstDecl, Decl)
  List<Name> names;
  Expr* type = nullptr;    // nil means no type
  Expr* values = nullptr;  // nil means no values (repeats the previous ones); ListExpr when several
};

// Name TParams Type
// Name TParams = Type  (alias)
struct TypeDecl : Decl {
  GORDIAN_NODE(TypeDecl, Decl)
  Name* name = nullptr;
  List<Field> tparams;  // empty means not generic
  bool alias = false;
  Expr* type = nullptr;
};

// NameList Type
// NameList Type = Values
// NameList      = Values
struct VarDecl : Decl {
  GORDIAN_NODE(VarDecl, Decl)
  List<Name> names;
  Expr* type = nullptr;    // nil means no type
  Expr* values = nullptr;  // nil means no values; ListExpr when several
};

// func          Name TParams Type { Body }
// func Receiver Name         Type { Body }
struct FuncDecl : Decl {
  GORDIAN_NODE(FuncDecl, Decl)
  Field* recv = nullptr;  // nil means a function, not a method
  Name* name = nullptr;
  List<Field> tparams;    // empty means not generic
  FuncType* type = nullptr;
  BlockStmt* body = nullptr;  // nil means no body (external function)
};

// ----------------------------------------------------------------------------
// Files

// A comment exactly as written, including // or /* */. Directives such as
// //go:build, //go:noinline and //line are comments too.
struct Comment {
  Pos pos = kNoPos;  // first byte (the '/')
  Pos end = kNoPos;  // one past the last byte (a // comment excludes the newline)
  std::string_view text;
};

// package PkgName; DeclList[0], DeclList[1], ...
struct File : Node {
  GORDIAN_NODE(File, Node)
  const SourceFile* source = nullptr;
  Name* pkg_name = nullptr;
  List<Decl> decls;
  std::span<Comment> comments;  // all comments of the file, in source order
  Pos eof = kNoPos;
};

#undef GORDIAN_NODE

}  // namespace gordian::syntax
