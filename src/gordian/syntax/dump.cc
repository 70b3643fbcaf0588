// This file implements the syntax tree dump: one case per node kind that
// names its key fields and its children's roles (one function per node
// family).
#include "gordian/syntax/dump.h"

#include <fmt/format.h>

#include "gordian/syntax/node_family.h"
#include "gordian/syntax/stack_guard.h"
#include "gordian/util/escape.h"

namespace gordian::syntax {
namespace {

std::string_view LitKindName(LitKind k) {
  switch (k) {
    case LitKind::Int: return "int";
    case LitKind::Float: return "float";
    case LitKind::Imag: return "imag";
    case LitKind::Rune: return "rune";
    case LitKind::String: return "string";
  }
  return "?";
}

std::string_view ChanDirName(ChanDir d) {
  switch (d) {
    case ChanDir::Both: return "both";
    case ChanDir::Send: return "send";
    case ChanDir::Recv: return "recv";
  }
  return "?";
}

// Literals may hold newlines (raw strings) and long text: show them quoted,
// escaped and, beyond 60 bytes, shortened, so that each node stays one line.
std::string Quote(std::string_view s) {
  constexpr size_t kShown = 60;
  std::string out = "\"";
  util::AppendEscaped(&out, s.substr(0, kShown), util::kStringEscapes);
  if (s.size() > kShown) out += "...";
  out += '"';
  return out;
}

class Dumper {
 public:
  explicit Dumper(const SourceFile* src) : src_(src) {}

  std::string out;

  void Node(std::string_view role, const syntax::Node* n) {
    if (n == nullptr) return;
    if (StackIsLow()) [[unlikely]] {
      RunOnNewStack([&] { Node(role, n); });
      return;
    }
    out.append(2 * static_cast<size_t>(depth_), ' ');
    if (!role.empty()) fmt::format_to(std::back_inserter(out), "{}: ", role);
    out += NodeKindName(n->kind);
    Details(n);
    fmt::format_to(std::back_inserter(out), " @{}\n", PosString(n->pos));
    depth_++;
    Children(n);
    depth_--;
  }

  void Comments(const File& f) {
    if (f.comments.empty()) return;
    out += "comments:\n";
    for (const Comment& c : f.comments) {
      fmt::format_to(std::back_inserter(out), "  {} @{}\n", Quote(c.text), PosString(c.pos));
    }
  }

 private:
  std::string PosString(Pos p) const {
    if (p == kNoPos) return "-";
    if (src_ != nullptr && src_->Contains(p)) {
      return src_->PositionAt(src_->OffsetOf(p)).String();
    }
    return fmt::format("+{}", p);
  }

  template <class T>
  void Each(std::string_view role, List<T> list) {
    for (size_t i = 0; i < list.size(); i++) {
      Node(fmt::format("{}[{}]", role, i), list[i]);
    }
  }

  void Details(const syntax::Node* n) {
    auto add = [&](std::string_view s) {
      out += ' ';
      out += s;
    };
    switch (n->kind) {
      case NodeKind::Name:
        add(static_cast<const Name*>(n)->value);
        break;
      case NodeKind::BasicLit: {
        auto* x = static_cast<const BasicLit*>(n);
        add(LitKindName(x->lit_kind));
        add(Quote(x->value));
        if (x->bad) add("bad");
        break;
      }
      case NodeKind::CompositeLit:
        add(fmt::format("nkeys={}", static_cast<const CompositeLit*>(n)->nkeys));
        break;
      case NodeKind::SliceExpr:
        if (static_cast<const SliceExpr*>(n)->full) add("full");
        break;
      case NodeKind::Operation:
        add(OpString(static_cast<const Operation*>(n)->op));
        if (static_cast<const Operation*>(n)->y == nullptr) add("unary");
        break;
      case NodeKind::CallExpr:
        if (static_cast<const CallExpr*>(n)->has_dots) add("...");
        break;
      case NodeKind::ChanType:
        add(ChanDirName(static_cast<const ChanType*>(n)->dir));
        break;
      case NodeKind::AssignStmt: {
        auto* x = static_cast<const AssignStmt*>(n);
        if (x->rhs == nullptr) {
          add(x->op == Op::Add ? "++" : "--");
        } else if (x->op == Op::Def) {
          add(":=");
        } else {
          add(fmt::format("{}=", OpString(x->op)));
        }
        break;
      }
      case NodeKind::BranchStmt:
        add(TokenString(static_cast<const BranchStmt*>(n)->tok));
        break;
      case NodeKind::CallStmt:
        add(TokenString(static_cast<const CallStmt*>(n)->tok));
        break;
      case NodeKind::RangeClause:
        if (static_cast<const RangeClause*>(n)->def) add(":=");
        break;
      case NodeKind::TypeDecl:
        if (static_cast<const TypeDecl*>(n)->alias) add("alias");
        break;
      default:
        break;
    }
    if (const auto* d = dynamic_cast_decl(n); d != nullptr && d->group != nullptr) {
      add(fmt::format("group={}", PosString(d->group->lparen)));
    }
  }

  static const Decl* dynamic_cast_decl(const syntax::Node* n) {
    switch (n->kind) {
      case NodeKind::ImportDecl:
      case NodeKind::ConstDecl:
      case NodeKind::TypeDecl:
      case NodeKind::VarDecl:
      case NodeKind::FuncDecl:
        return static_cast<const Decl*>(n);
      default:
        return nullptr;
    }
  }

  // The children of n with their roles: one function per node family.
  void Children(const syntax::Node* n) {
    switch (FamilyOf(n->kind)) {
      case NodeFamily::Expr: return ExprChildren(n);
      case NodeFamily::Type: return TypeChildren(n);
      case NodeFamily::Stmt: return StmtChildren(n);
      case NodeFamily::Decl: return DeclChildren(n);
    }
  }

  // The children of an expression.
  void ExprChildren(const syntax::Node* n) {
    switch (n->kind) {
      case NodeKind::BadExpr:
      case NodeKind::Name:
      case NodeKind::BasicLit:
        return;
      case NodeKind::CompositeLit: {
        auto* x = static_cast<const CompositeLit*>(n);
        Node("type", x->type);
        Each("elems", x->elems);
        return;
      }
      case NodeKind::KeyValueExpr: {
        auto* x = static_cast<const KeyValueExpr*>(n);
        Node("key", x->key);
        Node("value", x->value);
        return;
      }
      case NodeKind::FuncLit: {
        auto* x = static_cast<const FuncLit*>(n);
        Node("type", x->type);
        Node("body", x->body);
        return;
      }
      case NodeKind::ParenExpr:
        Node("x", static_cast<const ParenExpr*>(n)->x);
        return;
      case NodeKind::SelectorExpr: {
        auto* x = static_cast<const SelectorExpr*>(n);
        Node("x", x->x);
        Node("sel", x->sel);
        return;
      }
      case NodeKind::IndexExpr: {
        auto* x = static_cast<const IndexExpr*>(n);
        Node("x", x->x);
        Node("index", x->index);
        return;
      }
      case NodeKind::SliceExpr: {
        auto* x = static_cast<const SliceExpr*>(n);
        Node("x", x->x);
        Node("index[0]", x->index[0]);
        Node("index[1]", x->index[1]);
        Node("index[2]", x->index[2]);
        return;
      }
      case NodeKind::AssertExpr: {
        auto* x = static_cast<const AssertExpr*>(n);
        Node("x", x->x);
        Node("type", x->type);
        return;
      }
      case NodeKind::TypeSwitchGuard: {
        auto* x = static_cast<const TypeSwitchGuard*>(n);
        Node("lhs", x->lhs);
        Node("x", x->x);
        return;
      }
      case NodeKind::Operation: {
        auto* x = static_cast<const Operation*>(n);
        Node("x", x->x);
        Node("y", x->y);
        return;
      }
      case NodeKind::CallExpr: {
        auto* x = static_cast<const CallExpr*>(n);
        Node("fun", x->fun);
        Each("args", x->args);
        return;
      }
      case NodeKind::ListExpr:
        Each("elems", static_cast<const ListExpr*>(n)->elems);
        return;
      default:
        return;
    }
  }

  // The children of a type (or of a Field).
  void TypeChildren(const syntax::Node* n) {
    switch (n->kind) {
      case NodeKind::ArrayType: {
        auto* x = static_cast<const ArrayType*>(n);
        if (x->len == nullptr) {
          out.append(2 * static_cast<size_t>(depth_), ' ');
          out += "len: [...]\n";
        }
        Node("len", x->len);
        Node("elem", x->elem);
        return;
      }
      case NodeKind::SliceType:
        Node("elem", static_cast<const SliceType*>(n)->elem);
        return;
      case NodeKind::DotsType:
        Node("elem", static_cast<const DotsType*>(n)->elem);
        return;
      case NodeKind::StructType: {
        auto* x = static_cast<const StructType*>(n);
        for (size_t i = 0; i < x->fields.size(); i++) {
          Field(fmt::format("fields[{}]", i), x->fields, i);
          if (i < x->tags.size()) Node(fmt::format("tags[{}]", i), x->tags[i]);
        }
        return;
      }
      case NodeKind::Field: {
        auto* x = static_cast<const syntax::Field*>(n);
        Node("name", x->name);
        Node("type", x->type);
        return;
      }
      case NodeKind::InterfaceType:
        Fields("methods", static_cast<const InterfaceType*>(n)->methods);
        return;
      case NodeKind::FuncType: {
        auto* x = static_cast<const FuncType*>(n);
        Fields("params", x->params);
        Fields("results", x->results);
        return;
      }
      case NodeKind::MapType: {
        auto* x = static_cast<const MapType*>(n);
        Node("key", x->key);
        Node("value", x->value);
        return;
      }
      case NodeKind::ChanType:
        Node("elem", static_cast<const ChanType*>(n)->elem);
        return;
      default:
        return;
    }
  }

  // The children of a statement or clause.
  void StmtChildren(const syntax::Node* n) {
    switch (n->kind) {
      case NodeKind::EmptyStmt:
        return;
      case NodeKind::LabeledStmt: {
        auto* x = static_cast<const LabeledStmt*>(n);
        Node("label", x->label);
        Node("stmt", x->stmt);
        return;
      }
      case NodeKind::BlockStmt:
        Each("list", static_cast<const BlockStmt*>(n)->list);
        return;
      case NodeKind::ExprStmt:
        Node("x", static_cast<const ExprStmt*>(n)->x);
        return;
      case NodeKind::SendStmt: {
        auto* x = static_cast<const SendStmt*>(n);
        Node("chan", x->chan);
        Node("value", x->value);
        return;
      }
      case NodeKind::DeclStmt:
        Each("decls", static_cast<const DeclStmt*>(n)->decls);
        return;
      case NodeKind::AssignStmt: {
        auto* x = static_cast<const AssignStmt*>(n);
        Node("lhs", x->lhs);
        Node("rhs", x->rhs);
        return;
      }
      case NodeKind::BranchStmt:
        Node("label", static_cast<const BranchStmt*>(n)->label);
        return;
      case NodeKind::CallStmt:
        Node("call", static_cast<const CallStmt*>(n)->call);
        return;
      case NodeKind::ReturnStmt:
        Node("results", static_cast<const ReturnStmt*>(n)->results);
        return;
      case NodeKind::IfStmt: {
        auto* x = static_cast<const IfStmt*>(n);
        Node("init", x->init);
        Node("cond", x->cond);
        Node("then", x->then);
        Node("else", x->else_);
        return;
      }
      case NodeKind::ForStmt: {
        auto* x = static_cast<const ForStmt*>(n);
        Node("init", x->init);
        Node("cond", x->cond);
        Node("post", x->post);
        Node("body", x->body);
        return;
      }
      case NodeKind::RangeClause: {
        auto* x = static_cast<const RangeClause*>(n);
        Node("lhs", x->lhs);
        Node("x", x->x);
        return;
      }
      case NodeKind::SwitchStmt: {
        auto* x = static_cast<const SwitchStmt*>(n);
        Node("init", x->init);
        Node("tag", x->tag);
        Each("body", x->body);
        return;
      }
      case NodeKind::SelectStmt:
        Each("body", static_cast<const SelectStmt*>(n)->body);
        return;
      case NodeKind::CaseClause: {
        auto* x = static_cast<const CaseClause*>(n);
        Node("cases", x->cases);
        Each("body", x->body);
        return;
      }
      case NodeKind::CommClause: {
        auto* x = static_cast<const CommClause*>(n);
        Node("comm", x->comm);
        Each("body", x->body);
        return;
      }
      default:
        return;
    }
  }

  // The children of a declaration or of the File.
  void DeclChildren(const syntax::Node* n) {
    switch (n->kind) {
      case NodeKind::Count_:
        return;
      case NodeKind::ImportDecl: {
        auto* x = static_cast<const ImportDecl*>(n);
        Node("local_pkg_name", x->local_pkg_name);
        Node("path", x->path);
        return;
      }
      case NodeKind::ConstDecl: {
        auto* x = static_cast<const ConstDecl*>(n);
        Each("names", x->names);
        Node("type", x->type);
        Node("values", x->values);
        return;
      }
      case NodeKind::TypeDecl: {
        auto* x = static_cast<const TypeDecl*>(n);
        Node("name", x->name);
        Fields("tparams", x->tparams);
        Node("type", x->type);
        return;
      }
      case NodeKind::VarDecl: {
        auto* x = static_cast<const VarDecl*>(n);
        Each("names", x->names);
        Node("type", x->type);
        Node("values", x->values);
        return;
      }
      case NodeKind::FuncDecl: {
        auto* x = static_cast<const FuncDecl*>(n);
        Node("recv", x->recv);
        Node("name", x->name);
        Fields("tparams", x->tparams);
        Node("type", x->type);
        Node("body", x->body);
        return;
      }
      case NodeKind::File: {
        auto* x = static_cast<const File*>(n);
        Node("pkg_name", x->pkg_name);
        Each("decls", x->decls);
        return;
      }
      default:
        return;
    }
  }

  // A field list; a type shared with the previous field (`a, b T`) is shown
  // once, under the first field of the group, and referred to afterwards.
  void Fields(std::string_view role, List<syntax::Field> list) {
    for (size_t i = 0; i < list.size(); i++) {
      Field(fmt::format("{}[{}]", role, i), list, i);
    }
  }

  void Field(std::string_view role, List<syntax::Field> list, size_t i) {
    const syntax::Field* f = list[i];
    if (f == nullptr) return;
    if (i == 0 || f->type == nullptr || list[i - 1] == nullptr || list[i - 1]->type != f->type) {
      Node(role, f);
      return;
    }
    out.append(2 * static_cast<size_t>(depth_), ' ');
    fmt::format_to(std::back_inserter(out), "{}: Field @{}\n", role, PosString(f->pos));
    depth_++;
    Node("name", f->name);
    out.append(2 * static_cast<size_t>(depth_), ' ');
    out += "type: (shared with the previous field)\n";
    depth_--;
  }

  const SourceFile* src_;
  int depth_ = 0;
};

}  // namespace

std::string DumpFile(const File& f) {
  Dumper d(f.source);
  d.Node("", &f);
  d.Comments(f);
  return std::move(d.out);
}

std::string DumpNode(const Node* n, const SourceFile* src) {
  Dumper d(src);
  d.Node("", n);
  return std::move(d.out);
}

}  // namespace gordian::syntax
