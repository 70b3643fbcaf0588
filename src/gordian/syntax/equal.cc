// This file implements EqualTrees: a lock-step walk of two trees, one case
// per node kind (one function per node family), that stops at the first
// difference.
#include "gordian/syntax/equal.h"

#include <vector>

#include <fmt/format.h>

#include "gordian/syntax/node_family.h"
#include "gordian/syntax/stack_guard.h"

namespace gordian::syntax {
namespace {

class Comparer {
 public:
  explicit Comparer(std::string* diff) : diff_(diff) {}

  bool Node(const syntax::Node* a, const syntax::Node* b) {
    if (a == nullptr || b == nullptr) {
      if (a == b) return true;
      return NodesDiffer(a, b);
    }
    if (a->kind != b->kind) return NodesDiffer(a, b);
    if (StackIsLow()) [[unlikely]] {
      bool ok = false;
      RunOnNewStack([&] { ok = Fields(a, b); });
      return ok;
    }
    return Fields(a, b);
  }

 private:
  // A path step: a field name and, for list elements, an index.
  struct Step {
    std::string_view field;
    int index;  // -1 means not a list element
  };

  // A nil vs non-nil or a kind difference (out of line: see Value).
  [[gnu::noinline]] bool NodesDiffer(const syntax::Node* a, const syntax::Node* b) {
    if (a == nullptr || b == nullptr) return Fail(fmt::format("{} vs {}", Describe(a), Describe(b)));
    return Fail(fmt::format("kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
  }

  [[gnu::noinline]] bool SizesDiffer(std::string_view field, size_t a, size_t b) {
    path_.push_back({field, -1});
    return Fail(fmt::format("{} vs {} elements", a, b));
  }

  static std::string Describe(const syntax::Node* n) {
    return n == nullptr ? "nil" : std::string(NodeKindName(n->kind));
  }

  [[gnu::noinline]] bool Fail(std::string what) {
    if (diff_ != nullptr) {
      std::string path;
      for (const Step& s : path_) {
        if (!path.empty()) path += '.';
        path += s.field;
        if (s.index >= 0) path += fmt::format("[{}]", s.index);
      }
      *diff_ = path.empty() ? std::move(what) : path + ": " + what;
    }
    return false;
  }

  bool Child(std::string_view field, const syntax::Node* a, const syntax::Node* b) {
    path_.push_back({field, -1});
    bool ok = Node(a, b);
    path_.pop_back();
    return ok;
  }

  template <class T>
  bool List(std::string_view field, syntax::List<T> a, syntax::List<T> b) {
    if (a.size() != b.size()) return SizesDiffer(field, a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
      path_.push_back({field, static_cast<int>(i)});
      bool ok = Node(a[i], b[i]);
      path_.pop_back();
      if (!ok) return false;
    }
    return true;
  }

  // Field lists also compare grouping: which fields share their type.
  bool FieldList(std::string_view field, syntax::List<syntax::Field> a,
                 syntax::List<syntax::Field> b) {
    if (!List(field, a, b)) return false;
    for (size_t i = 1; i < a.size(); i++) {
      bool ga = a[i] && a[i - 1] && a[i]->type != nullptr && a[i]->type == a[i - 1]->type;
      bool gb = b[i] && b[i - 1] && b[i]->type != nullptr && b[i]->type == b[i - 1]->type;
      if (ga != gb) {
        path_.push_back({field, static_cast<int>(i)});
        return Fail(ga ? "grouped with the previous field vs not grouped"
                       : "not grouped with the previous field vs grouped");
      }
    }
    return true;
  }

  // Declaration lists also compare grouping: which decls share a group, and
  // which are in a group at all.
  bool DeclList(std::string_view field, syntax::List<Decl> a, syntax::List<Decl> b) {
    if (!List(field, a, b)) return false;
    for (size_t i = 0; i < a.size(); i++) {
      bool ina = a[i]->group != nullptr, inb = b[i]->group != nullptr;
      bool sama = i > 0 && ina && a[i]->group == a[i - 1]->group;
      bool samb = i > 0 && inb && b[i]->group == b[i - 1]->group;
      if (ina != inb || sama != samb) {
        path_.push_back({field, static_cast<int>(i)});
        auto desc = [](bool in, bool same) {
          return !in ? "not in a group" : same ? "in the previous decl's group" : "starts a group";
        };
        return Fail(fmt::format("{} vs {}", desc(ina, sama), desc(inb, samb)));
      }
    }
    return true;
  }

  // The comparison is inline; the formatting of a difference is not, so
  // that it takes no room in the frames of the recursion.
  template <class V>
  bool Value(std::string_view field, const V& a, const V& b) {
    if (a == b) return true;
    return ValueDiffers(field, a, b);
  }
  template <class V>
  [[gnu::noinline]] bool ValueDiffers(std::string_view field, const V& a, const V& b) {
    path_.push_back({field, -1});
    return Fail(fmt::format("{} vs {}", a, b));
  }

  // Compares the fields of a and b, of the same kind: one function per node
  // family.
  bool Fields(const syntax::Node* a, const syntax::Node* b) {
    switch (FamilyOf(a->kind)) {
      case NodeFamily::Expr: return ExprFields(a, b);
      case NodeFamily::Type: return TypeFields(a, b);
      case NodeFamily::Stmt: return StmtFields(a, b);
      case NodeFamily::Decl: return DeclFields(a, b);
    }
    return true;
  }

  // The fields of two expressions.
  bool ExprFields(const syntax::Node* a, const syntax::Node* b) {
    switch (a->kind) {
      case NodeKind::BadExpr:
        return true;
      case NodeKind::Name:
        return Value("value", static_cast<const Name*>(a)->value, static_cast<const Name*>(b)->value);
      case NodeKind::BasicLit: {
        auto *x = static_cast<const BasicLit*>(a), *y = static_cast<const BasicLit*>(b);
        return Value("value", x->value, y->value) &&
               Value("lit_kind", static_cast<int>(x->lit_kind), static_cast<int>(y->lit_kind)) &&
               Value("bad", x->bad, y->bad);
      }
      case NodeKind::CompositeLit: {
        auto *x = static_cast<const CompositeLit*>(a), *y = static_cast<const CompositeLit*>(b);
        return Child("type", x->type, y->type) && List("elems", x->elems, y->elems) &&
               Value("nkeys", x->nkeys, y->nkeys);
      }
      case NodeKind::KeyValueExpr: {
        auto *x = static_cast<const KeyValueExpr*>(a), *y = static_cast<const KeyValueExpr*>(b);
        return Child("key", x->key, y->key) && Child("value", x->value, y->value);
      }
      case NodeKind::FuncLit: {
        auto *x = static_cast<const FuncLit*>(a), *y = static_cast<const FuncLit*>(b);
        return Child("type", x->type, y->type) && Child("body", x->body, y->body);
      }
      case NodeKind::ParenExpr:
        return Child("x", static_cast<const ParenExpr*>(a)->x, static_cast<const ParenExpr*>(b)->x);
      case NodeKind::SelectorExpr: {
        auto *x = static_cast<const SelectorExpr*>(a), *y = static_cast<const SelectorExpr*>(b);
        return Child("x", x->x, y->x) && Child("sel", x->sel, y->sel);
      }
      case NodeKind::IndexExpr: {
        auto *x = static_cast<const IndexExpr*>(a), *y = static_cast<const IndexExpr*>(b);
        return Child("x", x->x, y->x) && Child("index", x->index, y->index);
      }
      case NodeKind::SliceExpr: {
        auto *x = static_cast<const SliceExpr*>(a), *y = static_cast<const SliceExpr*>(b);
        return Child("x", x->x, y->x) && Child("index[0]", x->index[0], y->index[0]) &&
               Child("index[1]", x->index[1], y->index[1]) &&
               Child("index[2]", x->index[2], y->index[2]) && Value("full", x->full, y->full);
      }
      case NodeKind::AssertExpr: {
        auto *x = static_cast<const AssertExpr*>(a), *y = static_cast<const AssertExpr*>(b);
        return Child("x", x->x, y->x) && Child("type", x->type, y->type);
      }
      case NodeKind::TypeSwitchGuard: {
        auto *x = static_cast<const TypeSwitchGuard*>(a), *y = static_cast<const TypeSwitchGuard*>(b);
        return Child("lhs", x->lhs, y->lhs) && Child("x", x->x, y->x);
      }
      case NodeKind::Operation: {
        auto *x = static_cast<const Operation*>(a), *y = static_cast<const Operation*>(b);
        return Value("op", OpString(x->op), OpString(y->op)) && Child("x", x->x, y->x) &&
               Child("y", x->y, y->y);
      }
      case NodeKind::CallExpr: {
        auto *x = static_cast<const CallExpr*>(a), *y = static_cast<const CallExpr*>(b);
        return Child("fun", x->fun, y->fun) && List("args", x->args, y->args) &&
               Value("has_dots", x->has_dots, y->has_dots);
      }
      case NodeKind::ListExpr:
        return List("elems", static_cast<const ListExpr*>(a)->elems,
                    static_cast<const ListExpr*>(b)->elems);
      default:
        return true;
    }
  }

  // The fields of two types (or Fields).
  bool TypeFields(const syntax::Node* a, const syntax::Node* b) {
    switch (a->kind) {
      case NodeKind::ArrayType: {
        auto *x = static_cast<const ArrayType*>(a), *y = static_cast<const ArrayType*>(b);
        return Child("len", x->len, y->len) && Child("elem", x->elem, y->elem);
      }
      case NodeKind::SliceType:
        return Child("elem", static_cast<const SliceType*>(a)->elem,
                     static_cast<const SliceType*>(b)->elem);
      case NodeKind::DotsType:
        return Child("elem", static_cast<const DotsType*>(a)->elem,
                     static_cast<const DotsType*>(b)->elem);
      case NodeKind::StructType: {
        auto *x = static_cast<const StructType*>(a), *y = static_cast<const StructType*>(b);
        if (!FieldList("fields", x->fields, y->fields)) return false;
        // An empty tag list means "no tags": the same as all tags nil.
        for (size_t i = 0; i < x->fields.size(); i++) {
          const BasicLit* ta = i < x->tags.size() ? x->tags[i] : nullptr;
          const BasicLit* tb = i < y->tags.size() ? y->tags[i] : nullptr;
          path_.push_back({"tags", static_cast<int>(i)});
          bool ok = Node(ta, tb);
          path_.pop_back();
          if (!ok) return false;
        }
        return true;
      }
      case NodeKind::Field: {
        auto *x = static_cast<const syntax::Field*>(a), *y = static_cast<const syntax::Field*>(b);
        return Child("name", x->name, y->name) && Child("type", x->type, y->type);
      }
      case NodeKind::InterfaceType:
        return FieldList("methods", static_cast<const InterfaceType*>(a)->methods,
                         static_cast<const InterfaceType*>(b)->methods);
      case NodeKind::FuncType: {
        auto *x = static_cast<const FuncType*>(a), *y = static_cast<const FuncType*>(b);
        return FieldList("params", x->params, y->params) &&
               FieldList("results", x->results, y->results);
      }
      case NodeKind::MapType: {
        auto *x = static_cast<const MapType*>(a), *y = static_cast<const MapType*>(b);
        return Child("key", x->key, y->key) && Child("value", x->value, y->value);
      }
      case NodeKind::ChanType: {
        auto *x = static_cast<const ChanType*>(a), *y = static_cast<const ChanType*>(b);
        return Value("dir", static_cast<int>(x->dir), static_cast<int>(y->dir)) &&
               Child("elem", x->elem, y->elem);
      }
      default:
        return true;
    }
  }

  // The fields of two statements or clauses.
  bool StmtFields(const syntax::Node* a, const syntax::Node* b) {
    switch (a->kind) {
      case NodeKind::EmptyStmt:
        return true;
      case NodeKind::LabeledStmt: {
        auto *x = static_cast<const LabeledStmt*>(a), *y = static_cast<const LabeledStmt*>(b);
        return Child("label", x->label, y->label) && Child("stmt", x->stmt, y->stmt);
      }
      case NodeKind::BlockStmt:
        return List("list", static_cast<const BlockStmt*>(a)->list,
                    static_cast<const BlockStmt*>(b)->list);
      case NodeKind::ExprStmt:
        return Child("x", static_cast<const ExprStmt*>(a)->x, static_cast<const ExprStmt*>(b)->x);
      case NodeKind::SendStmt: {
        auto *x = static_cast<const SendStmt*>(a), *y = static_cast<const SendStmt*>(b);
        return Child("chan", x->chan, y->chan) && Child("value", x->value, y->value);
      }
      case NodeKind::DeclStmt:
        return DeclList("decls", static_cast<const DeclStmt*>(a)->decls,
                        static_cast<const DeclStmt*>(b)->decls);
      case NodeKind::AssignStmt: {
        auto *x = static_cast<const AssignStmt*>(a), *y = static_cast<const AssignStmt*>(b);
        return Value("op", OpString(x->op), OpString(y->op)) && Child("lhs", x->lhs, y->lhs) &&
               Child("rhs", x->rhs, y->rhs);
      }
      case NodeKind::BranchStmt: {
        auto *x = static_cast<const BranchStmt*>(a), *y = static_cast<const BranchStmt*>(b);
        return Value("tok", TokenString(x->tok), TokenString(y->tok)) &&
               Child("label", x->label, y->label);
      }
      case NodeKind::CallStmt: {
        auto *x = static_cast<const CallStmt*>(a), *y = static_cast<const CallStmt*>(b);
        return Value("tok", TokenString(x->tok), TokenString(y->tok)) &&
               Child("call", x->call, y->call);
      }
      case NodeKind::ReturnStmt:
        return Child("results", static_cast<const ReturnStmt*>(a)->results,
                     static_cast<const ReturnStmt*>(b)->results);
      case NodeKind::IfStmt: {
        auto *x = static_cast<const IfStmt*>(a), *y = static_cast<const IfStmt*>(b);
        return Child("init", x->init, y->init) && Child("cond", x->cond, y->cond) &&
               Child("then", x->then, y->then) && Child("else", x->else_, y->else_);
      }
      case NodeKind::ForStmt: {
        auto *x = static_cast<const ForStmt*>(a), *y = static_cast<const ForStmt*>(b);
        return Child("init", x->init, y->init) && Child("cond", x->cond, y->cond) &&
               Child("post", x->post, y->post) && Child("body", x->body, y->body);
      }
      case NodeKind::RangeClause: {
        auto *x = static_cast<const RangeClause*>(a), *y = static_cast<const RangeClause*>(b);
        return Child("lhs", x->lhs, y->lhs) && Value("def", x->def, y->def) &&
               Child("x", x->x, y->x);
      }
      case NodeKind::SwitchStmt: {
        auto *x = static_cast<const SwitchStmt*>(a), *y = static_cast<const SwitchStmt*>(b);
        return Child("init", x->init, y->init) && Child("tag", x->tag, y->tag) &&
               List("body", x->body, y->body);
      }
      case NodeKind::SelectStmt:
        return List("body", static_cast<const SelectStmt*>(a)->body,
                    static_cast<const SelectStmt*>(b)->body);
      case NodeKind::CaseClause: {
        auto *x = static_cast<const CaseClause*>(a), *y = static_cast<const CaseClause*>(b);
        return Child("cases", x->cases, y->cases) && List("body", x->body, y->body);
      }
      case NodeKind::CommClause: {
        auto *x = static_cast<const CommClause*>(a), *y = static_cast<const CommClause*>(b);
        return Child("comm", x->comm, y->comm) && List("body", x->body, y->body);
      }
      default:
        return true;
    }
  }

  // The fields of two declarations or Files.
  bool DeclFields(const syntax::Node* a, const syntax::Node* b) {
    switch (a->kind) {
      case NodeKind::Count_:
        return true;
      case NodeKind::ImportDecl: {
        auto *x = static_cast<const ImportDecl*>(a), *y = static_cast<const ImportDecl*>(b);
        return Child("local_pkg_name", x->local_pkg_name, y->local_pkg_name) &&
               Child("path", x->path, y->path);
      }
      case NodeKind::ConstDecl: {
        auto *x = static_cast<const ConstDecl*>(a), *y = static_cast<const ConstDecl*>(b);
        return List("names", x->names, y->names) && Child("type", x->type, y->type) &&
               Child("values", x->values, y->values);
      }
      case NodeKind::TypeDecl: {
        auto *x = static_cast<const TypeDecl*>(a), *y = static_cast<const TypeDecl*>(b);
        return Child("name", x->name, y->name) && FieldList("tparams", x->tparams, y->tparams) &&
               Value("alias", x->alias, y->alias) && Child("type", x->type, y->type);
      }
      case NodeKind::VarDecl: {
        auto *x = static_cast<const VarDecl*>(a), *y = static_cast<const VarDecl*>(b);
        return List("names", x->names, y->names) && Child("type", x->type, y->type) &&
               Child("values", x->values, y->values);
      }
      case NodeKind::FuncDecl: {
        auto *x = static_cast<const FuncDecl*>(a), *y = static_cast<const FuncDecl*>(b);
        return Child("recv", x->recv, y->recv) && Child("name", x->name, y->name) &&
               FieldList("tparams", x->tparams, y->tparams) && Child("type", x->type, y->type) &&
               Child("body", x->body, y->body);
      }
      case NodeKind::File: {
        auto *x = static_cast<const File*>(a), *y = static_cast<const File*>(b);
        return Child("pkg_name", x->pkg_name, y->pkg_name) &&
               DeclList("decls", x->decls, y->decls);
      }
      default:
        return true;
    }
  }

  std::string* diff_;
  std::vector<Step> path_;
};

}  // namespace

bool EqualTrees(const Node* a, const Node* b, std::string* diff) {
  return Comparer(diff).Node(a, b);
}

}  // namespace gordian::syntax
