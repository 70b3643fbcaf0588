// This file implements the printer: a port of go/printer (printer.go for the
// whitespace and comment machinery, nodes.go for the node layouts) onto
// Gordian's AST. Function names and comments follow the Go originals so the
// two can be read side by side; differences are marked "Gordian:".
//
// Where go/ast records a token's position (a call's Rparen, a key's Colon),
// Gordian's nodes record only begin/end; the Context (printer_internal.h)
// finds such tokens in the source text, skipping blanks and comments.
//
// The printer is split by concern: this file has the entry points, the
// output filters and the measuring of nodes (NodeSize); printer_layout.cc
// the comments and whitespace; printer_exprs.cc, printer_types.cc,
// printer_stmts.cc and printer_decls.cc the layouts of expressions, types
// (signatures, parameter and field lists), statements and declarations;
// printer_internal.h the Printer class and the helpers they share.
#include "gordian/syntax/printer.h"

#include "gordian/syntax/printer_internal.h"
#include "gordian/syntax/tabwriter.h"

namespace gordian::syntax::printer_internal {

// ----------------------------------------------------------------------------
// The printer

Printer::Printer(Context* cx, bool raw, bool with_comments) : cx_(cx), raw_(raw) {
  if (with_comments) {
    group_end_ = static_cast<int>(cx_->groups().size());
  }
  pos_ = {0, 1, 1};
  out_ = {0, 1, 1};
  wsbuf_.reserve(16);
}

// Restricts the interspersed comments to those inside [begin, end).
void Printer::LimitComments(Pos begin, Pos end) {
  const auto& groups = cx_->groups();
  auto comments = cx_->comments();
  int i = 0;
  while (i < group_end_ && comments[static_cast<size_t>(groups[static_cast<size_t>(i)].last - 1)].end <= begin) i++;
  int j = i;
  while (j < group_end_ && comments[static_cast<size_t>(groups[static_cast<size_t>(j)].first)].pos < end) j++;
  cindex_ = i;
  group_end_ = j;
}

void Printer::PrintFileNode(const File& f) {
  NextComment();
  File_(f);
  Finish();
}

void Printer::PrintAnyNode(const Node* n) {
  NextComment();
  switch (n->kind) {
    case NodeKind::File:
      File_(*static_cast<const File*>(n));
      break;
    case NodeKind::ImportDecl:
    case NodeKind::ConstDecl:
    case NodeKind::TypeDecl:
    case NodeKind::VarDecl:
    case NodeKind::FuncDecl: {
      Decl* d = const_cast<Decl*>(static_cast<const Decl*>(n));
      DeclUnit u{std::span<Decl* const>(&d, 1)};
      // A lone member of a group prints as a plain declaration.
      GenDecl(u, /*as_single=*/true);
      break;
    }
    case NodeKind::Field: {
      auto* f = static_cast<const Field*>(n);
      if (f->name != nullptr) {
        Expr1(f->name, kLowestPrec, 1);
        if (f->type != nullptr) Print(blank);
      }
      if (f->type != nullptr) Expr1(f->type, kLowestPrec, 1);
      break;
    }
    case NodeKind::RangeClause:
      RangeHeader(static_cast<const RangeClause*>(n));
      break;
    case NodeKind::CaseClause:
    case NodeKind::CommClause:
      Stmt_(n, false);
      break;
    default:
      if (IsStmtKind(n->kind)) {
        if (n->kind == NodeKind::LabeledStmt) indent_ = 1;
        Stmt_(n, false);
      } else {
        Expr1(static_cast<const syntax::Expr*>(n), kLowestPrec, 1);
      }
      break;
  }
  Finish();
}

// ----------------------------------------------------------------------------
// Output filters

// A trimmer strips tabwriter escapes and trailing blanks and tabs, and turns
// formfeeds into newlines and vtabs into tabs (go/printer's trimmer). Text
// between escapes passes unchanged.
std::string Trim(std::string_view data) {
  std::string out;
  out.reserve(data.size());
  enum { kInSpace, kInEscape, kInText } state = kInSpace;
  std::string space;
  size_t m = 0;
  for (size_t n = 0; n < data.size(); n++) {
    char b = data[n];
    if (b == '\v') b = '\t';  // convert to htab
    switch (state) {
      case kInSpace:
        switch (b) {
          case '\t':
          case ' ':
            space.push_back(b);
            break;
          case '\n':
          case '\f':
            space.clear();  // discard trailing space
            out.push_back('\n');
            break;
          case TabWriter::kEscape:
            out += space;
            space.clear();
            state = kInEscape;
            m = n + 1;  // skip the escape
            break;
          default:
            out += space;
            space.clear();
            state = kInText;
            m = n;
        }
        break;
      case kInEscape:
        if (b == TabWriter::kEscape) {
          out.append(data.substr(m, n - m));
          space.clear();
          state = kInSpace;
        }
        break;
      case kInText:
        switch (b) {
          case '\t':
          case ' ':
            out.append(data.substr(m, n - m));
            space.clear();
            space.push_back(b);
            state = kInSpace;
            break;
          case '\n':
          case '\f':
            out.append(data.substr(m, n - m));
            space.clear();
            state = kInSpace;
            out.push_back('\n');
            break;
          case TabWriter::kEscape:
            out.append(data.substr(m, n - m));
            state = kInEscape;
            m = n + 1;
            break;
          default:
            break;
        }
        break;
    }
  }
  if (state != kInSpace) out.append(data.substr(m));
  return out;
}

int Printer::NodeSize(const Node* n, int max_size) {
  // nodeSize invokes the printer, which may invoke nodeSize recursively.
  // For deep composite literal nests, this can lead to an exponential
  // algorithm. Remember previous results to prune the recursion (was issue
  // 1628).
  auto& sizes = cx_->node_sizes();
  if (auto it = sizes.find(n); it != sizes.end()) return it->second;
  int size = max_size + 1;  // assume n doesn't fit
  sizes[n] = size;
  // nodeSize computation must be independent of particular style so that
  // we always get the same decision; print in RawFormat
  Printer p(cx_, /*raw=*/true, /*with_comments=*/false);
  p.PrintAnyNode(n);
  std::string out = Trim(p.output());
  if (static_cast<int>(out.size()) <= max_size &&
      out.find('\n') == std::string::npos) {
    size = static_cast<int>(out.size());
    sizes[n] = size;
  }
  return size;
}

// gofmt's configuration: tabs for indentation, spaces for alignment,
// tab width 8, padding 1.
std::string Format(const std::string& raw) {
  std::string aligned;
  aligned.reserve(raw.size() + raw.size() / 8);
  TabWriter tw(&aligned, 0, 8, 1, ' ',
               TabWriter::kDiscardEmptyColumns | TabWriter::kTabIndent);
  tw.Write(raw);
  tw.Flush();
  return Trim(aligned);
}

}  // namespace gordian::syntax::printer_internal

namespace gordian::syntax {

using printer_internal::Context;
using printer_internal::Format;
using printer_internal::Printer;

std::string PrintFile(const File& f) {
  Context cx(f.source, f.comments);
  Printer p(&cx, /*raw=*/false, /*with_comments=*/true);
  p.PrintFileNode(f);
  return Format(p.output());
}

std::string PrintNode(const Node* n, const File* file) {
  std::span<const Comment> comments;
  const SourceFile* src = nullptr;
  if (file != nullptr) {
    comments = file->comments;
    src = file->source;
  }
  Context cx(src, comments);
  Printer p(&cx, /*raw=*/false, /*with_comments=*/file != nullptr);
  if (file != nullptr && n->kind != NodeKind::File) p.LimitComments(n->begin, n->end);
  p.PrintAnyNode(n);
  std::string out = Format(p.output());
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace gordian::syntax
