// This file implements ForEachChild and Inspect: one case per node kind,
// listing its children in source order, in one function per node family.
#include "gordian/syntax/walk.h"

#include "gordian/syntax/node_family.h"
#include "gordian/syntax/stack_guard.h"

namespace gordian::syntax {
namespace {

template <class T, class F>
inline void EachOf(List<T> list, F& fn) {
  for (T* x : list) {
    if (x != nullptr) fn(x);
  }
}

template <class F>
inline void Opt(Node* x, F& fn) {
  if (x != nullptr) fn(x);
}

// The children of an expression.
template <class F>
void ExprChildren(Node* n, F& fn) {
  switch (n->kind) {
    case NodeKind::BadExpr:
    case NodeKind::Name:
    case NodeKind::BasicLit:
      return;
    case NodeKind::CompositeLit: {
      auto* x = static_cast<CompositeLit*>(n);
      Opt(x->type, fn);
      EachOf(x->elems, fn);
      return;
    }
    case NodeKind::KeyValueExpr: {
      auto* x = static_cast<KeyValueExpr*>(n);
      Opt(x->key, fn);
      Opt(x->value, fn);
      return;
    }
    case NodeKind::FuncLit: {
      auto* x = static_cast<FuncLit*>(n);
      Opt(x->type, fn);
      Opt(x->body, fn);
      return;
    }
    case NodeKind::ParenExpr:
      Opt(static_cast<ParenExpr*>(n)->x, fn);
      return;
    case NodeKind::SelectorExpr: {
      auto* x = static_cast<SelectorExpr*>(n);
      Opt(x->x, fn);
      Opt(x->sel, fn);
      return;
    }
    case NodeKind::IndexExpr: {
      auto* x = static_cast<IndexExpr*>(n);
      Opt(x->x, fn);
      Opt(x->index, fn);
      return;
    }
    case NodeKind::SliceExpr: {
      auto* x = static_cast<SliceExpr*>(n);
      Opt(x->x, fn);
      for (Expr* i : x->index) Opt(i, fn);
      return;
    }
    case NodeKind::AssertExpr: {
      auto* x = static_cast<AssertExpr*>(n);
      Opt(x->x, fn);
      Opt(x->type, fn);
      return;
    }
    case NodeKind::TypeSwitchGuard: {
      auto* x = static_cast<TypeSwitchGuard*>(n);
      Opt(x->lhs, fn);
      Opt(x->x, fn);
      return;
    }
    case NodeKind::Operation: {
      auto* x = static_cast<Operation*>(n);
      Opt(x->x, fn);
      Opt(x->y, fn);
      return;
    }
    case NodeKind::CallExpr: {
      auto* x = static_cast<CallExpr*>(n);
      Opt(x->fun, fn);
      EachOf(x->args, fn);
      return;
    }
    case NodeKind::ListExpr:
      EachOf(static_cast<ListExpr*>(n)->elems, fn);
      return;
    default:
      return;
  }
}

// The children of a type (or of a Field).
template <class F>
void TypeChildren(Node* n, F& fn) {
  switch (n->kind) {
    case NodeKind::ArrayType: {
      auto* x = static_cast<ArrayType*>(n);
      Opt(x->len, fn);
      Opt(x->elem, fn);
      return;
    }
    case NodeKind::SliceType:
      Opt(static_cast<SliceType*>(n)->elem, fn);
      return;
    case NodeKind::DotsType:
      Opt(static_cast<DotsType*>(n)->elem, fn);
      return;
    case NodeKind::StructType: {
      auto* x = static_cast<StructType*>(n);
      for (size_t i = 0; i < x->fields.size(); i++) {
        Opt(x->fields[i], fn);
        if (i < x->tags.size()) Opt(x->tags[i], fn);
      }
      return;
    }
    case NodeKind::Field: {
      auto* x = static_cast<Field*>(n);
      Opt(x->name, fn);
      Opt(x->type, fn);
      return;
    }
    case NodeKind::InterfaceType:
      EachOf(static_cast<InterfaceType*>(n)->methods, fn);
      return;
    case NodeKind::FuncType: {
      auto* x = static_cast<FuncType*>(n);
      EachOf(x->params, fn);
      EachOf(x->results, fn);
      return;
    }
    case NodeKind::MapType: {
      auto* x = static_cast<MapType*>(n);
      Opt(x->key, fn);
      Opt(x->value, fn);
      return;
    }
    case NodeKind::ChanType:
      Opt(static_cast<ChanType*>(n)->elem, fn);
      return;
    default:
      return;
  }
}

// The children of a statement or clause.
template <class F>
void StmtChildren(Node* n, F& fn) {
  switch (n->kind) {
    case NodeKind::EmptyStmt:
      return;
    case NodeKind::LabeledStmt: {
      auto* x = static_cast<LabeledStmt*>(n);
      Opt(x->label, fn);
      Opt(x->stmt, fn);
      return;
    }
    case NodeKind::BlockStmt:
      EachOf(static_cast<BlockStmt*>(n)->list, fn);
      return;
    case NodeKind::ExprStmt:
      Opt(static_cast<ExprStmt*>(n)->x, fn);
      return;
    case NodeKind::SendStmt: {
      auto* x = static_cast<SendStmt*>(n);
      Opt(x->chan, fn);
      Opt(x->value, fn);
      return;
    }
    case NodeKind::DeclStmt:
      EachOf(static_cast<DeclStmt*>(n)->decls, fn);
      return;
    case NodeKind::AssignStmt: {
      auto* x = static_cast<AssignStmt*>(n);
      Opt(x->lhs, fn);
      Opt(x->rhs, fn);
      return;
    }
    case NodeKind::BranchStmt:
      Opt(static_cast<BranchStmt*>(n)->label, fn);
      return;
    case NodeKind::CallStmt:
      Opt(static_cast<CallStmt*>(n)->call, fn);
      return;
    case NodeKind::ReturnStmt:
      Opt(static_cast<ReturnStmt*>(n)->results, fn);
      return;
    case NodeKind::IfStmt: {
      auto* x = static_cast<IfStmt*>(n);
      Opt(x->init, fn);
      Opt(x->cond, fn);
      Opt(x->then, fn);
      Opt(x->else_, fn);
      return;
    }
    case NodeKind::ForStmt: {
      auto* x = static_cast<ForStmt*>(n);
      Opt(x->init, fn);
      Opt(x->cond, fn);
      Opt(x->post, fn);
      Opt(x->body, fn);
      return;
    }
    case NodeKind::SwitchStmt: {
      auto* x = static_cast<SwitchStmt*>(n);
      Opt(x->init, fn);
      Opt(x->tag, fn);
      EachOf(x->body, fn);
      return;
    }
    case NodeKind::SelectStmt:
      EachOf(static_cast<SelectStmt*>(n)->body, fn);
      return;
    case NodeKind::RangeClause: {
      auto* x = static_cast<RangeClause*>(n);
      Opt(x->lhs, fn);
      Opt(x->x, fn);
      return;
    }
    case NodeKind::CaseClause: {
      auto* x = static_cast<CaseClause*>(n);
      Opt(x->cases, fn);
      EachOf(x->body, fn);
      return;
    }
    case NodeKind::CommClause: {
      auto* x = static_cast<CommClause*>(n);
      Opt(x->comm, fn);
      EachOf(x->body, fn);
      return;
    }
    default:
      return;
  }
}

// The children of a declaration or of the File.
template <class F>
void DeclChildren(Node* n, F& fn) {
  switch (n->kind) {
    case NodeKind::ImportDecl: {
      auto* x = static_cast<ImportDecl*>(n);
      Opt(x->local_pkg_name, fn);
      Opt(x->path, fn);
      return;
    }
    case NodeKind::ConstDecl: {
      auto* x = static_cast<ConstDecl*>(n);
      EachOf(x->names, fn);
      Opt(x->type, fn);
      Opt(x->values, fn);
      return;
    }
    case NodeKind::TypeDecl: {
      auto* x = static_cast<TypeDecl*>(n);
      Opt(x->name, fn);
      EachOf(x->tparams, fn);
      Opt(x->type, fn);
      return;
    }
    case NodeKind::VarDecl: {
      auto* x = static_cast<VarDecl*>(n);
      EachOf(x->names, fn);
      Opt(x->type, fn);
      Opt(x->values, fn);
      return;
    }
    case NodeKind::FuncDecl: {
      auto* x = static_cast<FuncDecl*>(n);
      Opt(x->recv, fn);
      Opt(x->name, fn);
      EachOf(x->tparams, fn);
      Opt(x->type, fn);
      Opt(x->body, fn);
      return;
    }
    case NodeKind::File: {
      auto* x = static_cast<File*>(n);
      Opt(x->pkg_name, fn);
      EachOf(x->decls, fn);
      return;
    }
    default:
      return;
  }
}

// The switch over node kinds, one function per family. F is a callable
// taking Node*.
template <class F>
void Children(Node* n, F& fn) {
  switch (FamilyOf(n->kind)) {
    case NodeFamily::Expr: return ExprChildren(n, fn);
    case NodeFamily::Type: return TypeChildren(n, fn);
    case NodeFamily::Stmt: return StmtChildren(n, fn);
    case NodeFamily::Decl: return DeclChildren(n, fn);
  }
}

// One level of Inspect. skip_type is set for a Field whose type was already
// visited under the previous field of its group.
struct Inspector {
  FunctionRef<bool(Node*)> pre;
  FunctionRef<void(Node*)>* post;  // null means no post callback

  void Walk(Node* n, bool skip_type) {
    if (StackIsLow()) [[unlikely]] {
      RunOnNewStack([&] { Walk(n, skip_type); });
      return;
    }
    if (!pre(n)) return;
    if (skip_type) {
      // Only a Field gets here: its name is the remaining child.
      auto* f = static_cast<Field*>(n);
      if (f->name != nullptr) Walk(f->name, false);
    } else {
      const Expr* last_field_type = nullptr;
      auto visit = [&](Node* c) {
        bool shared = false;
        if (c->kind == NodeKind::Field) {
          const Expr* t = static_cast<Field*>(c)->type;
          shared = t != nullptr && t == last_field_type;
          last_field_type = t;
        }
        Walk(c, shared);
      };
      Children(n, visit);
    }
    if (post != nullptr) (*post)(n);
  }
};

}  // namespace

void ForEachChild(Node* n, FunctionRef<void(Node*)> fn) { Children(n, fn); }

void ForEachChild(const Node* n, FunctionRef<void(const Node*)> fn) {
  auto call = [&](Node* c) { fn(c); };
  Children(const_cast<Node*>(n), call);
}

void Inspect(Node* root, FunctionRef<bool(Node*)> pre) {
  Inspector{pre, nullptr}.Walk(root, false);
}

void Inspect(const Node* root, FunctionRef<bool(const Node*)> pre) {
  auto call = [&](Node* n) { return pre(n); };
  Inspector{call, nullptr}.Walk(const_cast<Node*>(root), false);
}

void Inspect(Node* root, FunctionRef<bool(Node*)> pre, FunctionRef<void(Node*)> post) {
  Inspector{pre, &post}.Walk(root, false);
}

}  // namespace gordian::syntax
