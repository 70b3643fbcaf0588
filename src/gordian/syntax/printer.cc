// This file implements the printer: a port of go/printer (printer.go for the
// whitespace and comment machinery, nodes.go for the node layouts) onto
// Gordian's AST. Function names and comments follow the Go originals so the
// two can be read side by side; differences are marked "Gordian:".
//
// Where go/ast records a token's position (a call's Rparen, a key's Colon),
// Gordian's nodes record only begin/end; the Context below finds such tokens
// in the source text, skipping blanks and comments.
#include "gordian/syntax/printer.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <unordered_map>
#include <vector>

#include "gordian/syntax/stack_guard.h"
#include "gordian/syntax/tabwriter.h"

namespace gordian::syntax {
namespace {

constexpr int kInfinity = 1 << 30;
constexpr int kMaxNewlines = 2;  // max. number of newlines between source text

// ----------------------------------------------------------------------------
// Positions

// A resolved position in the source ("source space"), or invalid (line 0).
struct SrcPos {
  int offset = 0;
  int line = 0;
  int column = 0;
  bool valid() const { return line > 0; }
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// p + n, or kNoPos for kNoPos (a node without positions).
Pos Plus(Pos p, uint32_t n) { return p == kNoPos ? kNoPos : p + n; }
// The last byte of a node ending at end (its closing token), or kNoPos.
Pos LastByte(Pos end) { return end == kNoPos ? kNoPos : end - 1; }

// go/parser's comment groups: comments separated by at most one line (none
// for a group that starts on the line of the previous token).
struct CommentGroup {
  int first = 0;             // index into the file's comments
  int last = 0;              // one past the last
  int endline = 0;           // line of the last comment's end
  bool same_line = false;    // starts on the line of the previous token
  bool line_comment = false; // go/parser's lineComment: same_line, and the next item is on a later line
  bool has_newline = false;  // spans lines or holds a //-comment
};

// The source and comments shared by a printer and its nested size printers.
class Context {
 public:
  Context(const SourceFile* src, std::span<const Comment> comments)
      : src_(src), comments_(comments) {
    if (src_ != nullptr) {
      text_ = src_->content();
      line_starts_.reserve(text_.size() / 32 + 1);
      line_starts_.push_back(0);
      for (size_t i = 0; i < text_.size(); i++) {
        if (text_[i] == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
      }
    }
    BuildGroups();
  }

  bool has_source() const { return src_ != nullptr; }
  std::span<const Comment> comments() const { return comments_; }
  const std::vector<CommentGroup>& groups() const { return groups_; }
  std::unordered_map<const Node*, int>& node_sizes() { return node_sizes_; }

  // The printer resolves positions constantly, mostly near the previous
  // one: a private line table with a one-line cache beats SourceFile's
  // general lookup.
  SrcPos PosFor(Pos p) {
    if (src_ == nullptr || p == kNoPos || !src_->Contains(p)) return {};
    uint32_t o = src_->OffsetOf(p);
    size_t line = cached_line_;  // 0-based index into line_starts_
    if (!OnLine(o, line)) {
      // Most lookups are near the previous one: try the next lines first.
      if (OnLine(o, line + 1)) {
        line++;
      } else if (OnLine(o, line + 2)) {
        line += 2;
      } else {
        auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), o);
        line = static_cast<size_t>(it - line_starts_.begin()) - 1;
      }
      cached_line_ = line;
    }
    return {static_cast<int>(o), static_cast<int>(line + 1),
            static_cast<int>(o - line_starts_[line] + 1)};
  }
  int LineFor(Pos p) { return PosFor(p).line; }

  // Whether offset o is on the 0-based line.
  bool OnLine(uint32_t o, size_t line) const {
    return line < line_starts_.size() && o >= line_starts_[line] &&
           (line + 1 >= line_starts_.size() || o < line_starts_[line + 1]);
  }

  // The offset just past the end of a 1-based line (its newline included).
  int LineEndOffset(int line) const {
    if (static_cast<size_t>(line) < line_starts_.size()) {
      return static_cast<int>(line_starts_[static_cast<size_t>(line)]);
    }
    return static_cast<int>(text_.size());
  }

  // The first token at or after p (skipping blanks and comments).
  Pos TokenAfter(Pos p) const {
    if (!Valid(p)) return kNoPos;
    uint32_t o = Skip(src_->OffsetOf(p));
    return o < text_.size() ? src_->PosAt(o) : kNoPos;
  }

  // The position of the token c at or after p, skipping blanks, comments and
  // stray ',' or ';' (a trailing comma before a closing bracket); kNoPos if
  // another token comes first.
  Pos FindAfter(Pos p, char c) const {
    if (!Valid(p)) return kNoPos;
    uint32_t o = src_->OffsetOf(p);
    for (;;) {
      o = Skip(o);
      if (o >= text_.size()) return kNoPos;
      if (text_[o] == c) return src_->PosAt(o);
      if (text_[o] != ',' && text_[o] != ';') return kNoPos;
      o++;
    }
  }

  // The start of the keyword or name that ends right before p (skipping
  // blanks and comments backwards); kNoPos if there is none.
  Pos WordBefore(Pos p) const {
    if (!Valid(p)) return kNoPos;
    int64_t o = static_cast<int64_t>(src_->OffsetOf(p)) - 1;
    for (;;) {
      while (o >= 0 && IsSpace(text_[static_cast<size_t>(o)])) o--;
      if (o < 0) return kNoPos;
      // A comment ending here? Comments are sorted by position and by end.
      Pos end = src_->PosAt(static_cast<uint32_t>(o + 1));
      auto it = std::lower_bound(comments_.begin(), comments_.end(), end,
                                 [](const Comment& c, Pos e) { return c.end < e; });
      if (it != comments_.end() && it->end == end) {
        o = static_cast<int64_t>(src_->OffsetOf(it->pos)) - 1;
        continue;
      }
      break;
    }
    if (!IsIdentChar(text_[static_cast<size_t>(o)])) return kNoPos;
    while (o > 0 && IsIdentChar(text_[static_cast<size_t>(o - 1)])) o--;
    return src_->PosAt(static_cast<uint32_t>(o));
  }

  // Whether the word kw (a keyword) starts at p.
  bool WordAt(Pos p, std::string_view kw) const {
    if (!Valid(p)) return false;
    uint32_t o = src_->OffsetOf(p);
    return text_.substr(o, kw.size()) == kw &&
           (o + kw.size() >= text_.size() || !IsIdentChar(text_[o + kw.size()]));
  }

  char CharAt(Pos p) const {
    if (!Valid(p)) return 0;
    uint32_t o = src_->OffsetOf(p);
    return o < text_.size() ? text_[o] : 0;
  }

  // Whether only blanks lie in [a, b).
  bool OnlySpace(Pos a, Pos b) const {
    if (!Valid(a) || !Valid(b)) return false;
    for (uint32_t o = src_->OffsetOf(a); o < src_->OffsetOf(b); o++) {
      if (!IsSpace(text_[o])) return false;
    }
    return true;
  }

  // Whether a comment starts in [a, b).
  bool CommentIn(Pos a, Pos b) const {
    auto it = std::lower_bound(comments_.begin(), comments_.end(), a,
                               [](const Comment& c, Pos p) { return c.pos < p; });
    return it != comments_.end() && it->pos < b;
  }

  // Whether comment c is the first item on its source line.
  bool StartsLine(const Comment& c) const {
    if (!Valid(c.pos)) return false;
    uint32_t o = src_->OffsetOf(c.pos);
    while (o > 0 && (text_[o - 1] == ' ' || text_[o - 1] == '\t')) o--;
    return o == 0 || text_[o - 1] == '\n';
  }

  // go/ast's ValueSpec.Comment / Field.Comment != nil: a line comment group
  // directly follows the node ending at end.
  bool HasLineComment(Pos end) {
    if (!Valid(end)) return false;
    auto it = std::lower_bound(groups_.begin(), groups_.end(), end,
                               [&](const CommentGroup& g, Pos e) {
                                 return comments_[static_cast<size_t>(g.first)].pos < e;
                               });
    if (it == groups_.end() || !it->line_comment) return false;
    return OnlySpace(end, comments_[static_cast<size_t>(it->first)].pos);
  }

  // go/ast's GenDecl.Doc / FuncDecl.Doc != nil: a lead comment group ends on
  // the line before the declaration's keyword at kw.
  bool HasDoc(Pos kw) {
    if (!Valid(kw)) return false;
    auto it = std::lower_bound(groups_.begin(), groups_.end(), kw,
                               [&](const CommentGroup& g, Pos e) {
                                 return comments_[static_cast<size_t>(g.first)].pos < e;
                               });
    if (it == groups_.begin()) return false;
    const CommentGroup& g = *std::prev(it);
    if (g.same_line) return false;
    if (!OnlySpace(comments_[static_cast<size_t>(g.last - 1)].end, kw)) return false;
    return g.endline + 1 == LineFor(kw);
  }

 private:
  bool Valid(Pos p) const { return src_ != nullptr && p != kNoPos && src_->Contains(p); }

  uint32_t Skip(uint32_t o) const {
    while (o < text_.size()) {
      char c = text_[o];
      if (IsSpace(c)) {
        o++;
      } else if (c == '/' && o + 1 < text_.size() && text_[o + 1] == '/') {
        while (o < text_.size() && text_[o] != '\n') o++;
      } else if (c == '/' && o + 1 < text_.size() && text_[o + 1] == '*') {
        size_t e = text_.find("*/", o + 2);
        o = e == std::string_view::npos ? static_cast<uint32_t>(text_.size())
                                        : static_cast<uint32_t>(e + 2);
      } else {
        break;
      }
    }
    return o;
  }

  // Groups comments the way go/parser does (see parser.next): the first
  // group after a token on the same line takes only comments on its last
  // line; further groups take comments at most one line apart.
  void BuildGroups() {
    if (src_ == nullptr) {
      // Gordian: without source no positions resolve; one group per comment.
      for (size_t i = 0; i < comments_.size(); i++) {
        CommentGroup g;
        g.first = static_cast<int>(i);
        g.last = g.first + 1;
        g.has_newline = comments_[i].text.size() >= 2 &&
                        (comments_[i].text[1] == '/' ||
                         comments_[i].text.find('\n') != std::string_view::npos);
        groups_.push_back(g);
      }
      return;
    }
    uint32_t prev_end = 0;  // offset after the previous comment
    int n = 1;              // lines allowed between comments of the current group
    for (size_t i = 0; i < comments_.size(); i++) {
      const Comment& c = comments_[i];
      uint32_t o = src_->OffsetOf(c.pos);
      int line = LineFor(c.pos);
      int endline = line;
      if (c.text.size() >= 2 && c.text[1] == '*') {
        endline += static_cast<int>(std::count(c.text.begin(), c.text.end(), '\n'));
      }
      // The last token between the previous comment and this one, if any.
      int64_t tok = -1;
      for (uint32_t k = o; k > prev_end; k--) {
        if (!IsSpace(text_[k - 1])) {
          tok = k - 1;
          break;
        }
      }
      bool start = groups_.empty() || tok >= 0;
      if (!start && line > groups_.back().endline + n) start = true;
      if (start) {
        CommentGroup g;
        g.first = static_cast<int>(i);
        g.same_line = tok >= 0 && LineFor(src_->PosAt(static_cast<uint32_t>(tok))) == line;
        n = g.same_line ? 0 : 1;
        groups_.push_back(g);
      }
      CommentGroup& g = groups_.back();
      g.last = static_cast<int>(i) + 1;
      g.endline = endline;
      prev_end = src_->OffsetOf(c.end);
    }
    for (CommentGroup& g : groups_) {
      const Comment& first = comments_[static_cast<size_t>(g.first)];
      int line = LineFor(first.pos);
      for (int i = g.first; i < g.last; i++) {
        const Comment& c = comments_[static_cast<size_t>(i)];
        if ((i > g.first && LineFor(c.pos) != line) || c.text.size() < 2 || c.text[1] == '/' ||
            c.text.find('\n') != std::string_view::npos) {
          g.has_newline = true;
        }
      }
      if (g.same_line) {
        // A line comment if the next item starts on a later line, or is a
        // semicolon, or there is none.
        uint32_t e = src_->OffsetOf(comments_[static_cast<size_t>(g.last - 1)].end);
        while (e < text_.size() && IsSpace(text_[e])) e++;
        g.line_comment = e >= text_.size() || text_[e] == ';' ||
                         LineFor(src_->PosAt(e)) != g.endline;
      }
    }
  }

  const SourceFile* src_;
  std::string_view text_;
  std::span<const Comment> comments_;
  std::vector<CommentGroup> groups_;
  std::unordered_map<const Node*, int> node_sizes_;
  std::vector<uint32_t> line_starts_;  // offset of each line's first byte
  size_t cached_line_ = 0;             // the line of the last lookup
};

// ----------------------------------------------------------------------------
// Tokens and whitespace

// The printer's token classes: only what the layout rules look at.
enum class TK : uint8_t {
  Illegal,  // whitespace (go/printer's token.ILLEGAL)
  Eof,
  Ident,
  Int,
  Float,
  Imag,
  Char,
  String,
  Add,
  Sub,
  Quo,
  Lss,
  And,
  Inc,
  Dec,
  Lparen,
  Lbrack,
  Rparen,
  Rbrack,
  Rbrace,
  Comma,
  Break,
  Continue,
  Fallthrough,
  Return,
  Import,
  Other,
};

struct Tok {
  TK kind;
  std::string_view text;
};

constexpr Tok kLparen{TK::Lparen, "("}, kRparen{TK::Rparen, ")"}, kLbrack{TK::Lbrack, "["},
    kRbrack{TK::Rbrack, "]"}, kLbrace{TK::Other, "{"}, kRbrace{TK::Rbrace, "}"},
    kComma{TK::Comma, ","}, kSemicolon{TK::Other, ";"}, kColon{TK::Other, ":"},
    kPeriod{TK::Other, "."}, kEllipsis{TK::Other, "..."}, kAssign{TK::Other, "="},
    kDefine{TK::Other, ":="}, kArrow{TK::Other, "<-"}, kMul{TK::Other, "*"},
    kInc{TK::Inc, "++"}, kDec{TK::Dec, "--"}, kPackage{TK::Other, "package"},
    kImport{TK::Import, "import"}, kConst{TK::Other, "const"}, kType{TK::Other, "type"},
    kVar{TK::Other, "var"}, kFunc{TK::Other, "func"}, kStruct{TK::Other, "struct"},
    kInterface{TK::Other, "interface"}, kMap{TK::Other, "map"}, kChan{TK::Other, "chan"},
    kIf{TK::Other, "if"}, kElse{TK::Other, "else"}, kFor{TK::Other, "for"},
    kRange{TK::Other, "range"}, kSwitch{TK::Other, "switch"}, kSelect{TK::Other, "select"},
    kCase{TK::Other, "case"}, kDefault{TK::Other, "default"}, kGo{TK::Other, "go"},
    kDefer{TK::Other, "defer"}, kReturn{TK::Return, "return"}, kBreak{TK::Break, "break"},
    kContinue{TK::Continue, "continue"}, kGoto{TK::Other, "goto"},
    kFallthrough{TK::Fallthrough, "fallthrough"};

Tok OpTok(Op op) {
  switch (op) {
    case Op::Add: return {TK::Add, "+"};
    case Op::Sub: return {TK::Sub, "-"};
    case Op::Div: return {TK::Quo, "/"};
    case Op::Lss: return {TK::Lss, "<"};
    case Op::And: return {TK::And, "&"};
    default: return {TK::Other, OpString(op)};
  }
}

enum class WS : char {
  ignore = 0,
  blank = ' ',
  vtab = '\v',
  newline = '\n',
  formfeed = '\f',
  indent = '>',
  unindent = '<',
};
constexpr WS ignore = WS::ignore, blank = WS::blank, vtab = WS::vtab, newline = WS::newline,
             formfeed = WS::formfeed, indent = WS::indent, unindent = WS::unindent;

// Printer modes, toggled by printing them.
enum PMode : unsigned {
  kNoExtraBlank = 1,      // disables extra blank after /*-style comment
  kNoExtraLinebreak = 2,  // disables extra line break after /*-style comment
};
struct ModeToggle {
  unsigned bits;
};

enum ExprListMode : unsigned {
  kCommaTerm = 1,  // list is optionally terminated by a comma
  kNoIndent = 2,   // no extra indentation in multi-line lists
};

enum class ParamMode { kFuncParam, kFuncTParam, kTypeTParam };

using Exprs = std::span<Expr* const>;

// The elements of an expression that may be a ListExpr.
Exprs ListOf(Expr* const& x) {
  if (x == nullptr) return {};
  if (x->kind == NodeKind::ListExpr) {
    auto* l = static_cast<ListExpr*>(x);
    return {l->elems.data(), l->elems.size()};
  }
  return {&x, 1};
}

bool IsUnary(const Node* n, Op op) {
  auto* o = As<Operation>(n);
  return o != nullptr && o->y == nullptr && o->op == op;
}
bool IsBinary(const Node* n) {
  auto* o = As<Operation>(n);
  return o != nullptr && o->y != nullptr;
}

int Precedence(Op op) {
  switch (op) {
    case Op::OrOr: return 1;
    case Op::AndAnd: return 2;
    case Op::Eql: case Op::Neq: case Op::Lss: case Op::Leq: case Op::Gtr: case Op::Geq:
      return 3;
    case Op::Add: case Op::Sub: case Op::Or: case Op::Xor: return 4;
    case Op::Mul: case Op::Div: case Op::Rem: case Op::And: case Op::AndNot: case Op::Shl:
    case Op::Shr:
      return 5;
    default: return 0;
  }
}
constexpr int kLowestPrec = 0;
constexpr int kUnaryPrec = 6;
constexpr int kHighestPrec = 7;

// A go/ast Field: consecutive Gordian Fields sharing their type pointer.
struct FieldGroup {
  std::vector<Name*> names;
  Expr* type = nullptr;
  BasicLit* tag = nullptr;
  Pos begin = kNoPos;
  Pos end = kNoPos;
};

std::vector<FieldGroup> GroupFields(List<Field> fields, List<BasicLit> tags = {}) {
  std::vector<FieldGroup> out;
  for (size_t i = 0; i < fields.size(); i++) {
    Field* f = fields[i];
    BasicLit* tag = i < tags.size() ? tags[i] : nullptr;
    bool join = !out.empty() && f->name != nullptr && !out.back().names.empty() &&
                f->type != nullptr && f->type == out.back().type;
    if (!join) {
      FieldGroup g;
      g.type = f->type;
      g.begin = f->name != nullptr ? f->name->begin : f->type != nullptr ? f->type->begin : f->begin;
      out.push_back(std::move(g));
    }
    FieldGroup& g = out.back();
    if (f->name != nullptr) g.names.push_back(f->name);
    g.tag = tag;
    g.end = tag != nullptr ? tag->end : f->type != nullptr ? f->type->end : f->end;
  }
  return out;
}

int NumFields(const std::vector<FieldGroup>& groups) {
  int n = 0;
  for (const FieldGroup& g : groups) n += g.names.empty() ? 1 : static_cast<int>(g.names.size());
  return n;
}

// Bracket positions of a field list (kNoPos when unknown).
struct Brackets {
  Pos open = kNoPos;
  Pos close = kNoPos;
};

// A go/ast GenDecl: one declaration, or the decls of one parenthesized group.
struct DeclUnit {
  std::span<Decl* const> decls;
  bool grouped() const { return decls[0]->group != nullptr; }
};

// Splits a decl list into GenDecl-like units.
std::vector<DeclUnit> DeclUnits(std::span<Decl* const> decls) {
  std::vector<DeclUnit> out;
  size_t i = 0;
  while (i < decls.size()) {
    size_t j = i + 1;
    Group* g = decls[i]->group;
    if (g != nullptr && decls[i]->kind != NodeKind::FuncDecl) {
      while (j < decls.size() && decls[j]->group == g && decls[j]->kind == decls[i]->kind) j++;
    }
    out.push_back({decls.subspan(i, j - i)});
    i = j;
  }
  return out;
}

Tok DeclTok(const Decl* d) {
  switch (d->kind) {
    case NodeKind::ImportDecl: return kImport;
    case NodeKind::ConstDecl: return kConst;
    case NodeKind::TypeDecl: return kType;
    case NodeKind::VarDecl: return kVar;
    default: return kFunc;
  }
}

// The first position of a spec (go/ast's Spec.Pos()).
Pos SpecPos(const Decl* d) {
  switch (d->kind) {
    case NodeKind::ImportDecl: {
      auto* x = static_cast<const ImportDecl*>(d);
      return x->local_pkg_name != nullptr ? x->local_pkg_name->begin : x->path->begin;
    }
    case NodeKind::ConstDecl: {
      auto* x = static_cast<const ConstDecl*>(d);
      return x->names.empty() ? d->begin : x->names[0]->begin;
    }
    case NodeKind::VarDecl: {
      auto* x = static_cast<const VarDecl*>(d);
      return x->names.empty() ? d->begin : x->names[0]->begin;
    }
    case NodeKind::TypeDecl:
      return static_cast<const TypeDecl*>(d)->name->begin;
    default:
      return d->begin;
  }
}

// The end of a spec: its last child's end.
Pos SpecEnd(const Decl* d) {
  Expr* type = nullptr;
  Expr* values = nullptr;
  switch (d->kind) {
    case NodeKind::ImportDecl:
      return static_cast<const ImportDecl*>(d)->path->end;
    case NodeKind::ConstDecl:
      type = static_cast<const ConstDecl*>(d)->type;
      values = static_cast<const ConstDecl*>(d)->values;
      if (values == nullptr && type == nullptr) {
        auto names = static_cast<const ConstDecl*>(d)->names;
        return names.empty() ? d->end : names.back()->end;
      }
      break;
    case NodeKind::VarDecl:
      type = static_cast<const VarDecl*>(d)->type;
      values = static_cast<const VarDecl*>(d)->values;
      break;
    case NodeKind::TypeDecl:
      type = static_cast<const TypeDecl*>(d)->type;
      break;
    default:
      return d->end;
  }
  if (values != nullptr) return values->end;
  if (type != nullptr) return type->end;
  return d->end;
}

// ----------------------------------------------------------------------------
// The printer

class Printer {
 public:
  Printer(Context* cx, bool raw, bool with_comments) : cx_(cx), raw_(raw) {
    if (with_comments) {
      group_end_ = static_cast<int>(cx_->groups().size());
    }
    pos_ = {0, 1, 1};
    out_ = {0, 1, 1};
    wsbuf_.reserve(16);
  }

  // Restricts the interspersed comments to those inside [begin, end).
  void LimitComments(Pos begin, Pos end) {
    const auto& groups = cx_->groups();
    auto comments = cx_->comments();
    int i = 0;
    while (i < group_end_ && comments[static_cast<size_t>(groups[static_cast<size_t>(i)].last - 1)].end <= begin) i++;
    int j = i;
    while (j < group_end_ && comments[static_cast<size_t>(groups[static_cast<size_t>(j)].first)].pos < end) j++;
    cindex_ = i;
    group_end_ = j;
  }

  void PrintFileNode(const File& f) {
    NextComment();
    File_(f);
    Finish();
  }

  void PrintAnyNode(const Node* n) {
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

  // The raw output (before tabwriter and trimmer).
  const std::string& output() const { return output_; }

 private:
  static bool IsStmtKind(NodeKind k) {
    return k >= NodeKind::EmptyStmt && k <= NodeKind::CommClause;
  }

  void Finish() {
    implied_semi_ = false;  // EOF acts like a newline
    Flush({kInfinity, kInfinity, 0}, TK::Eof);
  }

  // --------------------------------------------------------------------------
  // Comments (printer.go)

  const Comment& CommentAt(int i) const { return cx_->comments()[static_cast<size_t>(i)]; }

  void NextComment() {
    if (cindex_ < group_end_) {
      cur_group_ = cindex_++;
      const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
      comment_offset_ = cx_->PosFor(CommentAt(g.first).pos).offset;
      comment_newline_ = g.has_newline;
      return;
    }
    cur_group_ = -1;
    comment_offset_ = kInfinity;
  }

  // commentBefore reports whether the current comment group occurs before
  // the next position in the source code and printing it does not introduce
  // implicit semicolons.
  //
  // Gordian: a group that will be printed on a line of its own (it began its
  // source line, or the printer is on another line) also needs a line break
  // before it; after a token that implies a semicolon it waits, like a group
  // with newlines. go/printer would print it and break the statement when
  // the token it follows was printed earlier than its source position (as
  // the `]` of `[...]T`, which has no recorded position).
  bool CommentBefore(SrcPos next) {
    if (comment_offset_ >= next.offset) return false;
    if (!implied_semi_ || comment_newline_) return !implied_semi_;
    const Comment& c = CommentAt(cx_->groups()[static_cast<size_t>(cur_group_)].first);
    return PosFor(c.pos).line == last_.line && !cx_->StartsLine(c);
  }

  // commentSizeBefore returns the estimated size of the comments on the
  // same line before the next position.
  int CommentSizeBefore(SrcPos next) {
    int saved_cindex = cindex_, saved_cur = cur_group_, saved_offset = comment_offset_;
    bool saved_newline = comment_newline_;
    int size = 0;
    while (CommentBefore(next)) {
      const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
      for (int i = g.first; i < g.last; i++) size += static_cast<int>(CommentAt(i).text.size());
      NextComment();
    }
    cindex_ = saved_cindex;
    cur_group_ = saved_cur;
    comment_offset_ = saved_offset;
    comment_newline_ = saved_newline;
    return size;
  }

  void RecordLine(int* line_ptr) { line_ptr_ = line_ptr; }
  int LinesFrom(int line) const { return out_.line - line; }

  SrcPos PosFor(Pos p) { return cx_->PosFor(p); }
  int LineFor(Pos p) { return cx_->LineFor(p); }

  void WriteIndent() {
    int n = indent_;
    output_.append(static_cast<size_t>(std::max(n, 0)), '\t');
    pos_.offset += n;
    pos_.column += n;
    out_.column += n;
  }

  // writeByte writes ch n times to the output and updates the positions.
  // Only used to write formatting (white space) characters.
  void WriteByte(char ch, int n) {
    if (end_alignment_) {
      // Ignore any alignment control character; and at the end of the line,
      // break with a formfeed to indicate termination of existing columns.
      if (ch == '\t' || ch == '\v') {
        ch = ' ';
      } else if (ch == '\n' || ch == '\f') {
        ch = '\f';
        end_alignment_ = false;
      }
    }
    if (out_.column == 1) WriteIndent();
    output_.append(static_cast<size_t>(n), ch);
    pos_.offset += n;
    if (ch == '\n' || ch == '\f') {
      pos_.line += n;
      out_.line += n;
      pos_.column = 1;
      out_.column = 1;
      return;
    }
    pos_.column += n;
    out_.column += n;
  }

  // writeString writes s (a token, literal or comment) and updates the
  // positions. If is_lit is set, s is escaped so that the tabwriter passes it
  // through unchanged.
  void WriteString(SrcPos pos, std::string_view s, bool is_lit) {
    if (out_.column == 1) WriteIndent();
    if (pos.valid()) pos_ = pos;  // else continue with the existing pos_
    if (is_lit) output_.push_back(TabWriter::kEscape);
    output_.append(s);
    int nlines = 0;
    size_t li = 0;  // index of the last newline
    for (size_t i = 0; i < s.size(); i++) {
      if (s[i] == '\n' || s[i] == '\f') {
        nlines++;
        li = i;
        // A line break inside a literal will break whatever column
        // formatting is in place; ignore any further alignment through the
        // end of the line.
        end_alignment_ = true;
      }
    }
    pos_.offset += static_cast<int>(s.size());
    if (nlines > 0) {
      pos_.line += nlines;
      out_.line += nlines;
      int c = static_cast<int>(s.size() - li);
      pos_.column = c;
      out_.column = c;
    } else {
      pos_.column += static_cast<int>(s.size());
      out_.column += static_cast<int>(s.size());
    }
    if (is_lit) output_.push_back(TabWriter::kEscape);
    last_ = pos_;
  }

  // writeCommentPrefix writes the whitespace before a comment. If there is
  // any pending whitespace, it consumes as much of it as is likely to help
  // position the comment nicely. pos is the comment position, next the
  // position of the item after all pending comments, prev is the previous
  // comment in a group of comments (or null), and tok is the next token.
  void WriteCommentPrefix(SrcPos pos, SrcPos next, const Comment* prev, const Comment& c,
                          TK tok) {
    if (output_.empty()) {
      // the comment is the first item to be printed - don't write any whitespace
      return;
    }
    // Gordian: a comment that began its source line begins its output line
    // (go/printer may join it to the previous line when the position it
    // estimated for the previous token is past the comment). For a //line or
    // //go: directive this is a matter of meaning, not looks.
    bool force_line = cx_->StartsLine(c);
    // Gordian: and one that followed a token on its line stays on the output
    // line, before any pending line break (it may follow a token that the
    // tree does not keep, as the `()` of an empty result list).
    bool stay = !force_line && prev == nullptr;
    if ((pos.line == last_.line || stay) && (prev == nullptr || prev->text[1] != '/') &&
        !force_line) {
      // comment on the same line as last item:
      // separate with at least one separator
      bool has_sep = false;
      if (prev == nullptr) {
        // first comment of a comment group
        size_t j = 0;
        for (size_t i = 0; i < wsbuf_.size(); i++) {
          WS ch = wsbuf_[i];
          if (ch == blank) {
            // ignore any blanks before a comment
            wsbuf_[i] = ignore;
            continue;
          }
          if (ch == vtab) {
            // respect existing tabs - important for proper formatting of
            // commented structs
            has_sep = true;
            continue;
          }
          if (ch == indent) continue;  // apply pending indentation
          j = i;
          break;
        }
        WriteWhitespace(j);
      }
      // make sure there is at least one separator
      if (!has_sep) {
        char sep = '\t';
        if (pos.line == next.line) {
          // next item is on the same line as the comment (which must be a
          // /*-style comment): separate with a blank instead of a tab
          sep = ' ';
        }
        WriteByte(sep, 1);
      }
    } else {
      // comment on a different line:
      // separate with at least one line break
      bool dropped_linebreak = false;
      size_t j = 0;
      for (size_t i = 0; i < wsbuf_.size(); i++) {
        WS ch = wsbuf_[i];
        if (ch == blank || ch == vtab) {
          // ignore any horizontal whitespace before line breaks
          wsbuf_[i] = ignore;
          continue;
        }
        if (ch == indent) continue;  // apply pending indentation
        if (ch == unindent) {
          // if this is not the last unindent, apply it as it is (likely)
          // belonging to the last construct (e.g., a multi-line expression
          // list) and is not part of closing a block
          if (i + 1 < wsbuf_.size() && wsbuf_[i + 1] == unindent) continue;
          // if the next token is not a closing }, apply the unindent if it
          // appears that the comment is aligned with the token; otherwise
          // assume the unindent is part of a closing block and stop (this
          // scenario appears with comments before a case label where the
          // comments apply to the next case instead of the current one)
          if (tok != TK::Rbrace && pos.column == next.column) continue;
        }
        if (ch == newline || ch == formfeed) {
          wsbuf_[i] = ignore;
          dropped_linebreak = prev == nullptr;  // record only if first comment of a group
        }
        j = i;
        break;
      }
      WriteWhitespace(j);

      // determine number of linebreaks before the comment
      int n = 0;
      if (pos.valid() && last_.valid()) n = std::max(pos.line - last_.line, 0);
      // at the package scope level only (indent == 0), add an extra newline
      // if we dropped one before: this preserves a blank line before
      // documentation comments at the package scope level (go/printer; Go
      // issue 2570)
      if (indent_ == 0 && dropped_linebreak) n++;
      // make sure there is at least one line break if the previous comment
      // was a line comment
      if (n == 0 && prev != nullptr && prev->text[1] == '/') n = 1;
      if (n == 0 && force_line) n = 1;
      if (n > 0) {
        // use formfeeds to break columns before a comment; this is
        // analogous to using formfeeds to separate individual lines of
        // /*-style comments
        WriteByte('\f', std::min(n, kMaxNewlines));
      }
    }
  }

  void WriteComment(const Comment& c) {
    std::string_view text = c.text;
    SrcPos pos = PosFor(c.pos);
    int saved_indent = indent_;
    if (text.starts_with("//line ") && (!pos.valid() || pos.column == 1)) {
      // Possibly a //-style line directive. Suspend indentation temporarily
      // to keep line directive valid.
      indent_ = 0;
    }
    // Gordian: every comment, /*-style ones included, is written verbatim:
    // go/printer re-indents the lines of /* */ comments, which would change
    // their text.
    WriteString(pos, text, true);
    indent_ = saved_indent;
  }

  // writeCommentSuffix writes a line break after a comment if indicated and
  // processes any leftover indentation information. If a line break is
  // needed, the kind of break (newline vs formfeed) depends on the pending
  // whitespace. Returns whether a newline was written and whether a formfeed
  // was dropped from the whitespace buffer.
  std::pair<bool, bool> WriteCommentSuffix(bool needs_linebreak) {
    bool wrote_newline = false, dropped_ff = false;
    for (WS& ch : wsbuf_) {
      if (ch == blank || ch == vtab) {
        ch = ignore;  // ignore trailing whitespace
      } else if (ch == newline || ch == formfeed) {
        // if we need a line break, keep exactly one but remember if we
        // dropped any formfeeds
        if (needs_linebreak) {
          needs_linebreak = false;
          wrote_newline = true;
        } else {
          if (ch == formfeed) dropped_ff = true;
          ch = ignore;
        }
      }
    }
    WriteWhitespace(wsbuf_.size());
    // make sure we have a line break
    if (needs_linebreak) {
      WriteByte('\n', 1);
      wrote_newline = true;
    }
    return {wrote_newline, dropped_ff};
  }

  bool ContainsLinebreak() const {
    for (WS ch : wsbuf_) {
      if (ch == newline || ch == formfeed) return true;
    }
    return false;
  }

  // intersperseComments consumes all comments that appear before the next
  // token tok and prints them together with the buffered whitespace.
  std::pair<bool, bool> IntersperseComments(SrcPos next, TK tok) {
    const Comment* last = nullptr;
    while (CommentBefore(next)) {
      const CommentGroup& g = cx_->groups()[static_cast<size_t>(cur_group_)];
      for (int i = g.first; i < g.last; i++) {
        const Comment& c = CommentAt(i);
        WriteCommentPrefix(PosFor(c.pos), next, last, c, tok);
        WriteComment(c);
        last = &c;
      }
      NextComment();
    }
    if (last != nullptr) {
      // If the last comment is a /*-style comment and the next item follows
      // on the same line but is not a comma, and not a "closing" token
      // immediately following its corresponding "opening" token, add an
      // extra separator unless explicitly disabled. Use a blank as separator
      // unless we have pending linebreaks, they are not disabled, and we are
      // outside a composite literal, in which case we want a linebreak
      // (go/printer; Go issue 15137).
      bool needs_linebreak = false;
      if ((mode_ & kNoExtraBlank) == 0 && last->text[1] == '*' &&
          LineFor(last->pos) == next.line && tok != TK::Comma &&
          (tok != TK::Rparen || prev_open_ == TK::Lparen) &&
          (tok != TK::Rbrack || prev_open_ == TK::Lbrack)) {
        if (ContainsLinebreak() && (mode_ & kNoExtraLinebreak) == 0 && level_ == 0) {
          needs_linebreak = true;
        } else {
          WriteByte(' ', 1);
        }
      }
      // Ensure that there is a line break after a //-style comment, before
      // EOF, and before a closing '}' unless explicitly disabled.
      if (last->text[1] == '/' || tok == TK::Eof ||
          (tok == TK::Rbrace && (mode_ & kNoExtraLinebreak) == 0)) {
        needs_linebreak = true;
      }
      return WriteCommentSuffix(needs_linebreak);
    }
    return {false, false};
  }

  // writeWhitespace writes the first n whitespace entries.
  void WriteWhitespace(size_t n) {
    for (size_t i = 0; i < n; i++) {
      WS ch = wsbuf_[i];
      switch (ch) {
        case WS::ignore:
          break;
        case WS::indent:
          indent_++;
          break;
        case WS::unindent:
          indent_--;
          if (indent_ < 0) indent_ = 0;
          break;
        case WS::newline:
        case WS::formfeed:
          // A line break immediately followed by a "correcting" unindent is
          // swapped with the unindent - this permits proper label
          // positioning. If a comment is between the line break and the
          // label, the unindent is not part of the comment whitespace prefix
          // and the comment will be positioned correctly indented.
          if (i + 1 < n && wsbuf_[i + 1] == unindent) {
            // Use a formfeed to terminate the current section. Otherwise, a
            // long label name on the next line leading to a wide column may
            // increase the indentation column of lines before the label;
            // effectively leading to wrong indentation.
            wsbuf_[i] = unindent;
            wsbuf_[i + 1] = formfeed;
            i--;  // do it again
            continue;
          }
          [[fallthrough]];
        default:
          WriteByte(static_cast<char>(ch), 1);
          break;
      }
    }
    // shift remaining entries down
    wsbuf_.erase(wsbuf_.begin(), wsbuf_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  // Prints the comments on the source line of the last token printed.
  void FlushTrailing() {
    if (cur_group_ < 0) return;
    const Comment& c = CommentAt(cx_->groups()[static_cast<size_t>(cur_group_)].first);
    SrcPos cp = PosFor(c.pos);
    if (cp.line != last_.line || cp.offset < last_.offset) return;
    // Everything up to the start of the next line. The pending line break
    // must survive: a /*-style comment's suffix drops it, expecting the next
    // token's source line to bring it back, which an estimate cannot.
    auto [wrote_newline, dropped_ff] =
        Flush({cx_->LineEndOffset(cp.line), cp.line + 1, 1}, TK::Illegal);
    if (!wrote_newline && !ContainsLinebreak()) P(dropped_ff ? formfeed : newline);
  }

  // flush prints any pending comments and whitespace occurring textually
  // before the position of the next token tok.
  std::pair<bool, bool> Flush(SrcPos next, TK tok) {
    if (CommentBefore(next)) return IntersperseComments(next, tok);
    WriteWhitespace(wsbuf_.size());
    return {false, false};
  }

  // --------------------------------------------------------------------------
  // Printing interface (printer.go's print, one overload per argument kind)

  void TrackOpen() {
    switch (last_tok_) {
      case TK::Illegal:
        break;
      case TK::Lparen:
      case TK::Lbrack:
        prev_open_ = last_tok_;
        break;
      default:
        prev_open_ = TK::Illegal;
    }
  }

  void P(WS x) {
    TrackOpen();
    if (x == ignore) {
      // don't add ignore's to the buffer; they may screw up "correcting"
      // unindents (see LabeledStmt)
      return;
    }
    if (wsbuf_.size() == 16) {
      // Whitespace sequences are very short so this should never happen.
      WriteWhitespace(wsbuf_.size());
    }
    wsbuf_.push_back(x);
    if (x == newline || x == formfeed) {
      // newlines affect the current state (impliedSemi) and not the state
      // after printing arg (impliedSemi) because comments can be
      // interspersed before the arg in this case
      implied_semi_ = false;
    }
    last_tok_ = TK::Illegal;
  }

  void P(ModeToggle m) {
    TrackOpen();
    mode_ ^= m.bits;
  }

  static bool MayCombine(TK prev, char next) {
    switch (prev) {
      case TK::Int: return next == '.';                   // 1.
      case TK::Add: return next == '+';                   // ++
      case TK::Sub: return next == '-';                   // --
      case TK::Quo: return next == '*';                   // /*
      case TK::Lss: return next == '-' || next == '<';    // <- or <<
      case TK::And: return next == '&' || next == '^';    // && or &^
      default: return false;
    }
  }

  void P(Tok t) {
    TrackOpen();
    if (MayCombine(last_real_tok_, t.text[0])) {
      // the previous and the current token must be separated by a blank
      // otherwise they combine into a different incorrect token sequence
      // (Gordian: unless pending whitespace separates them already; and the
      // token before pending indentation counts, as in `42` `...`)
      bool separated = false;
      for (WS w : wsbuf_) separated |= w == blank || w == vtab || w == newline || w == formfeed;
      if (!separated) wsbuf_.push_back(blank);
    }
    bool implied = false;
    switch (t.kind) {
      case TK::Break:
      case TK::Continue:
      case TK::Fallthrough:
      case TK::Return:
      case TK::Inc:
      case TK::Dec:
      case TK::Rparen:
      case TK::Rbrack:
      case TK::Rbrace:
        implied = true;
        break;
      default:
        break;
    }
    last_tok_ = t.kind;
    Emit(t.text, false, implied);
  }

  void PrintName(const Name* x) {
    TrackOpen();
    last_tok_ = TK::Ident;
    Emit(x->value, false, true);
  }

  void PrintLit(const BasicLit* x) {
    TrackOpen();
    switch (x->lit_kind) {
      case LitKind::Int: last_tok_ = TK::Int; break;
      case LitKind::Float: last_tok_ = TK::Float; break;
      case LitKind::Imag: last_tok_ = TK::Imag; break;
      case LitKind::Rune: last_tok_ = TK::Char; break;
      case LitKind::String: last_tok_ = TK::String; break;
    }
    Emit(x->value, true, true);
  }

  // An incorrect AST: print the text as a literal.
  void PrintText(std::string_view s) {
    TrackOpen();
    last_tok_ = TK::String;
    Emit(s, true, true);
  }

  void Emit(std::string_view data, bool is_lit, bool implied_semi) {
    last_real_tok_ = last_tok_;
    if (!pos_set_ && last_.valid() && ContainsLinebreak()) {
      // Gordian: a token without a position of its own (a node inserted by a
      // rewrite) starts a new line: first print the comments that trail the
      // line just ended, which its estimated position would otherwise pass.
      FlushTrailing();
    }
    pos_set_ = false;
    SrcPos next = pos_;  // estimated/accurate position of next item
    auto [wrote_newline, dropped_ff] = Flush(next, last_tok_);
    // intersperse extra newlines if present in the source and if they don't
    // cause extra semicolons (don't do this in flush as it will cause extra
    // newlines at the end of a file)
    if (!implied_semi_) {
      int n = std::min(next.line - pos_.line, kMaxNewlines);
      // don't exceed maxNewlines if we already wrote one
      if (wrote_newline && n == kMaxNewlines) n = kMaxNewlines - 1;
      if (n > 0) {
        WriteByte(dropped_ff ? '\f' : '\n', n);
        implied_semi = false;
      }
    }
    // the next token starts now - record its line number if requested
    if (line_ptr_ != nullptr) {
      *line_ptr_ = out_.line;
      line_ptr_ = nullptr;
    }
    WriteString(next, data, is_lit);
    implied_semi_ = implied_semi;
  }

  template <class... A>
  void Print(A... args) {
    (P(args), ...);
  }

  void SetPos(Pos p) {
    SrcPos q = PosFor(p);
    if (q.valid()) {
      pos_ = q;  // accurate position of next item
      pos_set_ = true;
    }
  }

  // --------------------------------------------------------------------------
  // Common nodes (nodes.go)

  // Print as many newlines as necessary (but at least min newlines) to get
  // to the current line. ws is printed before the first line break. If
  // new_section is set, the first line break is printed as formfeed. Returns
  // 0 if no line breaks were printed, returns 1 if there was exactly one
  // newline printed, and returns a value > 1 if there was a formfeed or more
  // than one newline printed.
  int Linebreak(int line, int min, WS ws, bool new_section) {
    int n = std::max(std::min(line - pos_.line, kMaxNewlines), min);
    int nbreaks = 0;
    if (n > 0) {
      Print(ws);
      if (new_section) {
        Print(formfeed);
        n--;
        nbreaks = 2;
      }
      nbreaks += n;
      for (; n > 0; n--) Print(newline);
    }
    return nbreaks;
  }

  // If indent is set, a multi-line identifier list is indented after the
  // first linebreak encountered.
  void IdentList(std::span<Name* const> list, bool do_indent) {
    std::vector<syntax::Expr*> xlist(list.begin(), list.end());
    ExprList(kNoPos, xlist, 1, do_indent ? 0u : unsigned{kNoIndent}, kNoPos);
  }

  // Print a list of expressions. If the list spans multiple source lines,
  // the original line breaks are respected between expressions.
  void ExprList(Pos prev0, Exprs list, int depth, unsigned mode, Pos next0) {
    if (list.empty()) return;
    SrcPos prev = PosFor(prev0);
    SrcPos next = PosFor(next0);
    int line = LineFor(list[0]->begin);
    int end_line = LineFor(list.back()->end);

    // Gordian: a comment between the list and a closing token on a later
    // line keeps the multi-line form below (which prints a trailing comma
    // and breaks the line): on one line, as in go/printer, the closing token
    // would come first and push a trailing comment onto a line of its own.
    bool comment_after = (mode & kCommaTerm) != 0 && next.valid() && next.line > end_line &&
                         cx_->CommentIn(list.back()->end, next0);
    if (prev.valid() && prev.line == line && line == end_line && !comment_after) {
      // all list entries on a single line
      for (size_t i = 0; i < list.size(); i++) {
        if (i > 0) {
          // use position of expression following the comma as comma
          // position for correct comment placement
          SetPos(list[i]->begin);
          Print(kComma, blank);
        }
        Expr0(list[i], depth);
      }
      return;
    }

    // list entries span multiple lines; use source code positions to guide
    // line breaks

    // Don't add extra indentation if noIndent is set; i.e., pretend that the
    // first line is already indented.
    WS ws = ignore;
    if ((mode & kNoIndent) == 0) ws = indent;

    // The first linebreak is always a formfeed since this section must not
    // depend on any previous formatting.
    int prev_break = -1;  // index of last expression that was followed by a linebreak
    if (prev.valid() && prev.line < line && Linebreak(line, 0, ws, true) > 0) {
      ws = ignore;
      prev_break = 0;
    }

    // initialize expression/key size: a zero value indicates expr/key
    // doesn't fit on a single line
    int size = 0;

    // We use the ratio between the geometric mean of the previous key sizes
    // and the current size to determine if there should be a break in the
    // alignment. To compute the geometric mean we accumulate the ln(size)
    // values (lnsum) and the number of sizes included (count).
    double lnsum = 0;
    int count = 0;

    // print all list elements
    int prev_line = prev.line;
    for (size_t i = 0; i < list.size(); i++) {
      syntax::Expr* x = list[i];
      line = LineFor(x->begin);

      // Determine if the next linebreak, if any, needs to use formfeed: in
      // general, use the entire node size to make the decision; for
      // key:value expressions, use the key size.
      bool use_ff = true;

      // Determine element size: All bets are off if we don't have position
      // information for the previous and next token (likely generated code -
      // simply ignore the size in this case by setting it to 0).
      int prev_size = size;
      constexpr int kInf = 1000000;  // larger than any source line
      size = NodeSize(x, kInf);
      auto* pair = As<KeyValueExpr>(x);
      if (size <= kInf && prev.valid() && next.valid()) {
        // x fits on a single line
        if (pair != nullptr) size = NodeSize(pair->key, kInf);  // size <= infinity
      } else {
        // size too large or we don't have good layout information
        size = 0;
      }

      // If the previous line and the current line had single-line-
      // expressions and the key sizes are small or the ratio between the
      // current key and the geometric mean if the previous key sizes does
      // not exceed a threshold, align columns and do not use formfeed.
      if (prev_size > 0 && size > 0) {
        constexpr int kSmallSize = 40;
        if (count == 0 || (prev_size <= kSmallSize && size <= kSmallSize)) {
          use_ff = false;
        } else {
          constexpr double kR = 2.5;                         // threshold
          double geomean = std::exp(lnsum / count);  // count > 0
          double ratio = size / geomean;
          use_ff = kR * ratio <= 1 || kR <= ratio;
        }
      }

      bool needs_linebreak = 0 < prev_line && prev_line < line;
      if (i > 0) {
        // Use position of expression following the comma as comma position
        // for correct comment placement, but only if the expression is on
        // the same line.
        if (!needs_linebreak) SetPos(x->begin);
        Print(kComma);
        bool needs_blank = true;
        if (needs_linebreak) {
          // Lines are broken using newlines so comments remain aligned
          // unless useFF is set or there are multiple expressions on the
          // same line in which case formfeed is used.
          int nbreaks = Linebreak(line, 0, ws, use_ff || prev_break + 1 < static_cast<int>(i));
          if (nbreaks > 0) {
            ws = ignore;
            prev_break = static_cast<int>(i);
            needs_blank = false;  // we got a line break instead
          }
          // If there was a new section or more than one new line (which
          // means that the tabwriter will implicitly break the section),
          // reset the geomean variables since we are starting a new group
          // of elements with the next element.
          if (nbreaks > 1) {
            lnsum = 0;
            count = 0;
          }
        }
        if (needs_blank) Print(blank);
      }

      if (list.size() > 1 && pair != nullptr && size > 0 && needs_linebreak) {
        // We have a key:value expression that fits onto one line and it's
        // not on the same line as the prior expression: Use a column for the
        // key such that consecutive entries can align if possible.
        Expr(pair->key);
        SetPos(cx_->TokenAfter(pair->key->end));
        Print(kColon, vtab);
        Expr(pair->value);
      } else {
        Expr0(x, depth);
      }

      if (size > 0) {
        lnsum += std::log(static_cast<double>(size));
        count++;
      }
      prev_line = line;
    }

    if ((mode & kCommaTerm) != 0 && next.valid() && pos_.line < next.line) {
      // Print a terminating comma if the next token is on a new line.
      Print(kComma);
      if (ws == ignore && (mode & kNoIndent) == 0) {
        // unindent if we indented
        Print(unindent);
      }
      Print(formfeed);  // terminating comma needs a line break to look good
      return;
    }

    if (ws == ignore && (mode & kNoIndent) == 0) {
      // unindent if we indented
      Print(unindent);
    }
  }

  void Parameters(const std::vector<FieldGroup>& fields, Brackets br, ParamMode mode) {
    Tok open = kLparen, close = kRparen;
    if (mode != ParamMode::kFuncParam) {
      open = kLbrack;
      close = kRbrack;
    }
    SetPos(br.open);
    Print(open);
    if (!fields.empty()) {
      int prev_line = LineFor(br.open);
      WS ws = indent;
      for (size_t i = 0; i < fields.size(); i++) {
        const FieldGroup& par = fields[i];
        // determine par begin and end line (may be different if there are
        // multiple parameter names for this par or the type is on a
        // separate line)
        int par_line_beg = LineFor(par.begin);
        int par_line_end = LineFor(par.end);
        // separating "," if needed
        bool needs_linebreak = 0 < prev_line && prev_line < par_line_beg;
        if (i > 0) {
          // use position of parameter following the comma as comma position
          // for correct comma placement, but only if the next parameter is
          // on the same line
          if (!needs_linebreak) SetPos(par.begin);
          Print(kComma);
        }
        // separator if needed (linebreak or blank)
        if (needs_linebreak && Linebreak(par_line_beg, 0, ws, true) > 0) {
          // break line if the opening "(" or previous parameter ended on a
          // different line
          ws = ignore;
        } else if (i > 0) {
          Print(blank);
        }
        // parameter names
        if (!par.names.empty()) {
          // Very subtle: If we indented before (ws == ignore), identList
          // won't indent again. If we didn't (ws == indent), identList will
          // indent if the identList spans multiple lines, and it will outdent
          // again at the end (and still ws == indent). Thus, a subsequent
          // indent by a linebreak call after a type, or in the next
          // multi-line identList will do the right thing.
          IdentList(par.names, ws == indent);
          if (par.type != nullptr) Print(blank);
        }
        // parameter type (Gordian: parentheses are kept)
        if (par.type != nullptr) Expr(par.type);
        prev_line = par_line_end;
      }

      // if the closing ")" is on a separate line from the last parameter,
      // print an additional "," and line break
      if (int closing = LineFor(br.close); 0 < prev_line && prev_line < closing) {
        Print(kComma);
        Linebreak(closing, 0, ignore, true);
      } else if (mode == ParamMode::kTypeTParam && NumFields(fields) == 1 &&
                 fields[0].type != nullptr && CombinesWithName(fields[0].type)) {
        // A type parameter list [P T] where the name P and the type
        // expression T syntactically combine to another valid (value)
        // expression requires a trailing comma, as in [P *T,] (or an
        // enclosing interface as in [P interface(*T)]), so that the type
        // parameter list is not parsed as an array length [P*T].
        Print(kComma);
      }

      // unindent if we indented
      if (ws == ignore) Print(unindent);
    }
    SetPos(br.close);
    Print(close);
  }

  // combinesWithName reports whether a name followed by the expression x
  // syntactically combines to another valid (value) expression. For
  // instance using *T for x, "name *T" syntactically appears as the
  // expression x*T. On the other hand, using  P|Q or *P|~Q for x, "name P|Q"
  // or "name *P|~Q" cannot be combined into a valid (value) expression.
  static bool CombinesWithName(const syntax::Expr* x) {
    if (IsUnary(x, Op::Mul)) return !IsTypeElem(static_cast<const Operation*>(x)->x);
    if (IsBinary(x)) {
      auto* b = static_cast<const Operation*>(x);
      return CombinesWithName(b->x) && !IsTypeElem(b->y);
    }
    if (auto* p = As<ParenExpr>(x)) return !IsTypeElem(p->x);
    return false;
  }

  // isTypeElem reports whether x is a (possibly parenthesized) type element
  // expression. The result is false if x could be a type element OR an
  // ordinary (value) expression.
  static bool IsTypeElem(const syntax::Expr* x) {
    switch (x->kind) {
      case NodeKind::ArrayType:
      case NodeKind::SliceType:
      case NodeKind::StructType:
      case NodeKind::FuncType:
      case NodeKind::InterfaceType:
      case NodeKind::MapType:
      case NodeKind::ChanType:
        return true;
      case NodeKind::Operation: {
        auto* o = static_cast<const Operation*>(x);
        if (o->y == nullptr) return o->op == Op::Tilde;
        return IsTypeElem(o->x) || IsTypeElem(o->y);
      }
      case NodeKind::ParenExpr:
        return IsTypeElem(static_cast<const ParenExpr*>(x)->x);
      default:
        return false;
    }
  }

  // The brackets of a signature whose parameter list (or type parameter
  // list, if generic) starts at the first token at or after `after`.
  struct SigBrackets {
    Brackets tparams, params, results;
  };
  SigBrackets FindSigBrackets(Pos after, List<Field> tparams, const FuncType* t) {
    SigBrackets b;
    Pos p = after;
    if (!tparams.empty()) {
      b.tparams.open = cx_->TokenAfter(p);
      b.tparams.close = cx_->FindAfter(LastEnd(tparams, Plus(b.tparams.open, 1)), ']');
      p = Plus(b.tparams.close, 1);
    }
    b.params.open = cx_->TokenAfter(p);
    if (b.params.open != kNoPos && cx_->CharAt(b.params.open) != '(') b.params.open = kNoPos;
    b.params.close = cx_->FindAfter(LastEnd(t->params, Plus(b.params.open, 1)), ')');
    if (!t->results.empty() && b.params.close != kNoPos) {
      Pos r = cx_->TokenAfter(Plus(b.params.close, 1));
      if (r != kNoPos && cx_->CharAt(r) == '(') {
        b.results.open = r;
        b.results.close = cx_->FindAfter(LastEnd(t->results, Plus(r, 1)), ')');
      }
    }
    return b;
  }

  // The end of the last field of list, or `otherwise` for an empty list.
  static Pos LastEnd(List<Field> list, Pos otherwise) {
    if (list.empty()) return otherwise;
    const Field* f = list.back();
    return f->type != nullptr ? f->type->end : f->name != nullptr ? f->name->end : f->end;
  }

  void Signature(List<Field> tparams, const FuncType* sig, const SigBrackets& br) {
    if (!tparams.empty()) Parameters(GroupFields(tparams), br.tparams, ParamMode::kFuncTParam);
    Parameters(GroupFields(sig->params), br.params, ParamMode::kFuncParam);
    auto res = GroupFields(sig->results);
    int n = NumFields(res);
    if (n > 0) {
      Print(blank);
      if (n == 1 && res[0].names.empty() && !Is<ParenExpr>(res[0].type)) {
        // single anonymous res; no ()'s (Gordian: unless the type is
        // parenthesized: `((T))` would lose a ParenExpr as `(T)`)
        Expr(res[0].type);
        return;
      }
      Parameters(res, br.results, ParamMode::kFuncParam);
    } else if (explicit_results_ > 0) {
      // Gordian: in `func()()(x)` the empty result list must be printed, or
      // the call's arguments would be read as results.
      Print(blank);
      Parameters(res, br.results, ParamMode::kFuncParam);
    }
  }

  static int IdentListSize(const std::vector<Name*>& list, int max_size) {
    int size = 0;
    for (size_t i = 0; i < list.size(); i++) {
      if (i > 0) size += 2;  // ", "
      for (unsigned char c : list[i]->value) size += (c & 0xC0) != 0x80;
      if (size >= max_size) break;
    }
    return size;
  }

  bool IsOneLineFieldList(const std::vector<FieldGroup>& list) {
    if (list.size() != 1) return false;  // allow only one field
    const FieldGroup& f = list[0];
    if (f.tag != nullptr || cx_->HasLineComment(f.end)) return false;  // don't allow tags or comments
    // only name(s) and type
    constexpr int kMaxSize = 30;  // adjust as appropriate, this is an approximate value
    int names_size = IdentListSize(f.names, kMaxSize);
    if (names_size > 0) names_size = 1;  // blank between names and types
    int type_size = f.type != nullptr ? NodeSize(f.type, kMaxSize) : 0;
    return names_size + type_size <= kMaxSize;
  }

  void FieldList(const std::vector<FieldGroup>& list, Pos lbrace, Pos rbrace, bool is_struct) {
    bool has_comments = CommentBefore(PosFor(rbrace));
    bool src_is_one_line = lbrace != kNoPos && rbrace != kNoPos && LineFor(lbrace) != 0 &&
                           LineFor(lbrace) == LineFor(rbrace);

    if (!has_comments && src_is_one_line) {
      // possibly a one-line struct/interface
      if (list.empty()) {
        // no blank between keyword and {} in this case
        SetPos(lbrace);
        Print(kLbrace);
        SetPos(rbrace);
        Print(kRbrace);
        return;
      }
      if (IsOneLineFieldList(list)) {
        // small enough - print on one line (don't use identList and ignore
        // source line breaks)
        SetPos(lbrace);
        Print(kLbrace, blank);
        const FieldGroup& f = list[0];
        if (is_struct) {
          for (size_t i = 0; i < f.names.size(); i++) {
            if (i > 0) Print(kComma, blank);  // no comments so no need for comma position
            Expr(f.names[i]);
          }
          if (!f.names.empty()) Print(blank);
          Expr(f.type);
        } else {  // interface
          if (!f.names.empty() && Is<FuncType>(f.type)) {
            // method
            Expr(f.names[0]);
            auto* ft = static_cast<const FuncType*>(f.type);
            Signature({}, ft, FindSigBrackets(f.names[0]->end, {}, ft));
          } else {
            // embedded interface
            Expr(f.type);
          }
        }
        Print(blank);
        SetPos(rbrace);
        Print(kRbrace);
        return;
      }
    }
    // has_comments || !src_is_one_line

    Print(blank);
    SetPos(lbrace);
    Print(kLbrace, indent);
    if (has_comments || !list.empty()) Print(formfeed);

    if (is_struct) {
      WS sep = vtab;
      if (list.size() == 1) sep = blank;
      int line = 0;
      for (size_t i = 0; i < list.size(); i++) {
        const FieldGroup& f = list[i];
        if (i > 0) Linebreak(LineFor(f.begin), 1, ignore, LinesFrom(line) > 0);
        int extra_tabs = 0;
        RecordLine(&line);
        if (!f.names.empty()) {
          // named fields
          IdentList(f.names, false);
          Print(sep);
          Expr(f.type);
          extra_tabs = 1;
        } else {
          // anonymous field
          Expr(f.type);
          extra_tabs = 2;
        }
        if (f.tag != nullptr) {
          if (!f.names.empty() && sep == vtab) Print(sep);
          Print(sep);
          Expr(f.tag);
          extra_tabs = 0;
        }
        if (cx_->HasLineComment(f.end)) {
          for (; extra_tabs > 0; extra_tabs--) Print(sep);
        }
      }
    } else {  // interface
      int line = 0;
      for (size_t i = 0; i < list.size(); i++) {
        const FieldGroup& f = list[i];
        if (i > 0) Linebreak(LineFor(f.begin), 1, ignore, LinesFrom(line) > 0);
        RecordLine(&line);
        if (!f.names.empty() && Is<FuncType>(f.type)) {
          // method
          for (size_t k = 0; k < f.names.size(); k++) {
            // Gordian: methods never share a type; kept general anyway.
            if (k > 0) Print(kComma, blank);
            Expr(f.names[k]);
          }
          auto* ft = static_cast<const FuncType*>(f.type);
          Signature({}, ft, FindSigBrackets(f.names.back()->end, {}, ft));
        } else {
          // embedded interface
          Expr(f.type);
        }
      }
    }
    Print(unindent, formfeed);
    SetPos(rbrace);
    Print(kRbrace);
  }

  // --------------------------------------------------------------------------
  // Expressions

  static void WalkBinary(const Operation* e, bool* has4, bool* has5, int* max_problem) {
    switch (Precedence(e->op)) {
      case 4: *has4 = true; break;
      case 5: *has5 = true; break;
      default: break;
    }
    if (IsBinary(e->x)) {
      auto* l = static_cast<const Operation*>(e->x);
      // if l.Op.Precedence() < e.Op.Precedence(): parens will be inserted;
      // pretend this is a ParenExpr and do nothing.
      if (Precedence(l->op) >= Precedence(e->op)) WalkBinary(l, has4, has5, max_problem);
    }
    if (IsBinary(e->y)) {
      auto* r = static_cast<const Operation*>(e->y);
      if (Precedence(r->op) > Precedence(e->op)) WalkBinary(r, has4, has5, max_problem);
    } else if (auto* r = As<Operation>(e->y); r != nullptr && r->y == nullptr) {
      if (r->op == Op::Mul) {
        if (e->op == Op::Div) *max_problem = 5;  // `*/`
      } else {
        Op a = e->op, b = r->op;
        if ((a == Op::Div && b == Op::Mul) || (a == Op::And && b == Op::And) ||
            (a == Op::And && b == Op::Xor)) {
          *max_problem = 5;  // "/*", "&&", "&^"
        } else if ((a == Op::Add && b == Op::Add) || (a == Op::Sub && b == Op::Sub)) {
          *max_problem = std::max(*max_problem, 4);  // "++", "--"
        }
      }
    }
  }

  static int Cutoff(const Operation* e, int depth) {
    bool has4 = false, has5 = false;
    int max_problem = 0;
    WalkBinary(e, &has4, &has5, &max_problem);
    if (max_problem > 0) return max_problem + 1;
    if (has4 && has5) return depth == 1 ? 5 : 4;
    return depth == 1 ? 6 : 4;
  }

  static int DiffPrec(const syntax::Expr* x, int prec) {
    if (!IsBinary(x) || prec != Precedence(static_cast<const Operation*>(x)->op)) return 1;
    return 0;
  }

  static int ReduceDepth(int depth) { return std::max(depth - 1, 1); }

  // Format the binary expression: decide the cutoff and then format.
  // Let's call depth == 1 Normal mode, and depth > 1 Compact mode.
  // (Algorithm suggestion by Russ Cox; see go/printer/nodes.go.)
  void BinaryExpr(const Operation* x, int prec1, int cutoff, int depth) {
    int prec = Precedence(x->op);
    if (prec < prec1) {
      // parenthesis needed (a hand-built tree: the parser makes ParenExprs)
      Print(kLparen);
      Expr0(x, ReduceDepth(depth));  // parentheses undo one level of depth
      Print(kRparen);
      return;
    }
    bool print_blank = prec < cutoff;
    WS ws = indent;
    Expr1(x->x, prec, depth + DiffPrec(x->x, prec));
    if (print_blank) Print(blank);
    int xline = pos_.line;  // before the operator (it may be on the next line!)
    int yline = LineFor(x->y->begin);
    SetPos(cx_->TokenAfter(x->x->end));
    Print(OpTok(x->op));
    if (xline != yline && xline > 0 && yline > 0) {
      // at least one line break, but respect an extra empty line in the source
      if (Linebreak(yline, 1, ws, true) > 0) {
        ws = ignore;
        print_blank = false;  // no blank after line break
      }
    }
    if (print_blank) Print(blank);
    Expr1(x->y, prec + 1, depth + 1);
    if (ws == ignore) Print(unindent);
  }

  void Expr1(const syntax::Expr* expr, int prec1, int depth) {
    if (StackIsLow()) [[unlikely]] {
      RunOnNewStack([&] { Expr1Impl(expr, prec1, depth); });
      return;
    }
    Expr1Impl(expr, prec1, depth);
  }

  void Expr1Impl(const syntax::Expr* expr, int prec1, int depth) {
    SetPos(expr->begin);
    switch (expr->kind) {
      case NodeKind::BadExpr:
        PrintText("BadExpr");
        break;
      case NodeKind::Name:
        PrintName(static_cast<const Name*>(expr));
        break;
      case NodeKind::BasicLit:
        PrintLit(static_cast<const BasicLit*>(expr));
        break;
      case NodeKind::Operation: {
        auto* x = static_cast<const Operation*>(expr);
        if (x->y != nullptr) {
          BinaryExpr(x, prec1, Cutoff(x, depth), depth);
        } else if (x->op == Op::Mul) {
          // a StarExpr
          if (kUnaryPrec < prec1) {
            Print(kLparen, kMul);
            Expr(x->x);
            Print(kRparen);
          } else {
            Print(kMul);
            Expr(x->x);
          }
        } else if (kUnaryPrec < prec1) {
          // parenthesis needed
          Print(kLparen);
          Expr(x);
          Print(kRparen);
        } else {
          Print(x->op == Op::Recv ? kArrow : OpTok(x->op));
          Expr1(x->x, kUnaryPrec, depth);
        }
        break;
      }
      case NodeKind::KeyValueExpr: {
        auto* x = static_cast<const KeyValueExpr*>(expr);
        Expr(x->key);
        SetPos(cx_->TokenAfter(x->key->end));
        Print(kColon, blank);
        Expr(x->value);
        break;
      }
      case NodeKind::FuncLit: {
        auto* x = static_cast<const FuncLit*>(expr);
        SetPos(x->begin);
        Print(kFunc);
        // See the comment in funcDecl about how the header size is computed.
        int start_col = out_.column - 4;
        Signature({}, x->type, FindSigBrackets(Plus(x->begin, 4), {}, x->type));
        FuncBody(DistanceFrom(x->begin, start_col), blank, x->body);
        break;
      }
      case NodeKind::ParenExpr: {
        // Gordian: parentheses are always kept, even around a parenthesized
        // expression, so that the tree does not change.
        auto* x = static_cast<const ParenExpr*>(expr);
        Print(kLparen);
        Expr0(x->x, ReduceDepth(depth));  // parentheses undo one level of depth
        SetPos(LastByte(x->end));
        Print(kRparen);
        break;
      }
      case NodeKind::SelectorExpr:
        SelectorExpr(static_cast<const syntax::SelectorExpr*>(expr), depth, false);
        break;
      case NodeKind::AssertExpr: {
        auto* x = static_cast<const AssertExpr*>(expr);
        Expr1(x->x, kHighestPrec, depth);
        Print(kPeriod);
        Pos dot = cx_->TokenAfter(x->x->end);
        SetPos(dot == kNoPos ? kNoPos : cx_->TokenAfter(dot + 1));
        Print(kLparen);
        Expr(x->type);
        SetPos(LastByte(x->end));
        Print(kRparen);
        break;
      }
      case NodeKind::TypeSwitchGuard: {
        // As go/ast's AssignStmt `lhs := x.(type)` (or just `x.(type)`).
        auto* x = static_cast<const TypeSwitchGuard*>(expr);
        if (x->lhs != nullptr) {
          Expr0(x->lhs, depth);
          Print(blank);
          SetPos(cx_->TokenAfter(x->lhs->end));
          Print(kDefine, blank);
          SetPos(x->x->begin);
        }
        Expr1(x->x, kHighestPrec, depth);
        Print(kPeriod);
        Pos dot = cx_->TokenAfter(x->x->end);
        SetPos(dot == kNoPos ? kNoPos : cx_->TokenAfter(dot + 1));
        Print(kLparen, kType);
        SetPos(LastByte(x->end));
        Print(kRparen);
        break;
      }
      case NodeKind::IndexExpr: {
        auto* x = static_cast<const IndexExpr*>(expr);
        Expr1(x->x, kHighestPrec, 1);
        Pos lbrack = cx_->TokenAfter(x->x->end);
        SetPos(lbrack);
        Print(kLbrack);
        if (x->index->kind == NodeKind::ListExpr) {
          ExprList(lbrack, ListOf(x->index), depth + 1, kCommaTerm, LastByte(x->end));
        } else {
          Expr0(x->index, depth + 1);
        }
        SetPos(LastByte(x->end));
        Print(kRbrack);
        break;
      }
      case NodeKind::SliceExpr: {
        auto* x = static_cast<const SliceExpr*>(expr);
        Expr1(x->x, kHighestPrec, 1);
        SetPos(cx_->TokenAfter(x->x->end));
        Print(kLbrack);
        size_t n = x->full ? 3 : 2;
        // determine if we need extra blanks around ':'
        bool needs_blanks = false;
        if (depth <= 1) {
          int index_count = 0;
          bool has_binaries = false;
          for (size_t i = 0; i < n; i++) {
            if (x->index[i] != nullptr) {
              index_count++;
              if (IsBinary(x->index[i])) has_binaries = true;
            }
          }
          if (index_count > 1 && has_binaries) needs_blanks = true;
        }
        for (size_t i = 0; i < n; i++) {
          if (i > 0) {
            if (x->index[i - 1] != nullptr && needs_blanks) Print(blank);
            Print(kColon);
            if (x->index[i] != nullptr && needs_blanks) Print(blank);
          }
          if (x->index[i] != nullptr) Expr0(x->index[i], depth + 1);
        }
        SetPos(LastByte(x->end));
        Print(kRbrack);
        break;
      }
      case NodeKind::CallExpr: {
        auto* x = static_cast<const CallExpr*>(expr);
        if (x->args.size() > 1) depth++;
        // Conversions to literal function types or <-chan types require
        // parentheses around the type (a hand-built tree: the parser keeps
        // them as a ParenExpr).
        // Gordian: a function type is instead printed with explicit empty
        // result lists, `func()()(x)`, which keeps the tree unchanged.
        bool paren = false;
        if (auto* t = As<ChanType>(x->fun)) paren = t->dir == ChanDir::Recv;
        bool func_type = x->fun->kind == NodeKind::FuncType;
        if (paren) Print(kLparen);
        if (func_type) explicit_results_++;
        bool was_indented = PossibleSelectorExpr(x->fun, kHighestPrec, depth);
        if (func_type) explicit_results_--;
        if (paren) Print(kRparen);
        Pos lparen = cx_->TokenAfter(x->fun->end);
        Pos rparen = LastByte(x->end);
        SetPos(lparen);
        Print(kLparen);
        Exprs args(x->args.data(), x->args.size());
        if (x->has_dots) {
          Pos ellipsis = args.empty() ? kNoPos : cx_->TokenAfter(args.back()->end);
          ExprList(lparen, args, depth, 0, ellipsis);
          SetPos(ellipsis);
          Print(kEllipsis);
          if (rparen != kNoPos && ellipsis != kNoPos && LineFor(ellipsis) < LineFor(rparen)) {
            Print(kComma, formfeed);
          }
        } else {
          ExprList(lparen, args, depth, kCommaTerm, rparen);
        }
        SetPos(rparen);
        Print(kRparen);
        if (was_indented) Print(unindent);
        break;
      }
      case NodeKind::CompositeLit: {
        auto* x = static_cast<const CompositeLit*>(expr);
        // composite literal elements that are composite literals themselves
        // may have the type omitted
        if (x->type != nullptr) Expr1(x->type, kHighestPrec, depth);
        level_++;
        Pos lbrace = x->type != nullptr ? cx_->TokenAfter(x->type->end) : x->begin;
        Pos rbrace = x->rbrace != kNoPos ? x->rbrace : LastByte(x->end);
        SetPos(lbrace);
        Print(kLbrace);
        ExprList(lbrace, Exprs(x->elems.data(), x->elems.size()), 1, kCommaTerm,
                 rbrace);
        // do not insert extra line break following a /*-style comment before
        // the closing '}' as it might break the code if there is no trailing
        // ','
        unsigned mode = kNoExtraLinebreak;
        // do not insert extra blank following a /*-style comment before the
        // closing '}' unless the literal is empty
        if (!x->elems.empty()) mode |= kNoExtraBlank;
        // need the initial indent to print lone comments with the proper
        // level of indentation
        Print(indent, unindent, ModeToggle{mode});
        SetPos(rbrace);
        Print(kRbrace, ModeToggle{mode});
        level_--;
        break;
      }
      case NodeKind::ListExpr: {
        // Only in hand-built trees outside of the places that expect lists.
        auto* x = static_cast<const ListExpr*>(expr);
        ExprList(kNoPos, Exprs(x->elems.data(), x->elems.size()), depth, 0,
                 kNoPos);
        break;
      }
      case NodeKind::DotsType:
        Print(kEllipsis);
        if (auto* e = static_cast<const DotsType*>(expr)->elem) Expr(e);
        break;
      case NodeKind::ArrayType: {
        auto* x = static_cast<const ArrayType*>(expr);
        Print(kLbrack);
        if (x->len != nullptr) {
          Expr(x->len);
        } else {
          Print(kEllipsis);
        }
        Print(kRbrack);
        Expr(x->elem);
        break;
      }
      case NodeKind::SliceType:
        Print(kLbrack, kRbrack);
        Expr(static_cast<const SliceType*>(expr)->elem);
        break;
      case NodeKind::StructType: {
        auto* x = static_cast<const StructType*>(expr);
        Print(kStruct);
        FieldList(GroupFields(x->fields, x->tags),
                  cx_->TokenAfter(Plus(x->begin, 6)),
                  LastByte(x->end), true);
        break;
      }
      case NodeKind::FuncType: {
        auto* x = static_cast<const FuncType*>(expr);
        Print(kFunc);
        Signature({}, x, FindSigBrackets(Plus(x->begin, 4), {}, x));
        break;
      }
      case NodeKind::InterfaceType: {
        auto* x = static_cast<const InterfaceType*>(expr);
        Print(kInterface);
        FieldList(GroupFields(x->methods),
                  cx_->TokenAfter(Plus(x->begin, 9)),
                  LastByte(x->end), false);
        break;
      }
      case NodeKind::MapType: {
        auto* x = static_cast<const MapType*>(expr);
        Print(kMap, kLbrack);
        Expr(x->key);
        Print(kRbrack);
        Expr(x->value);
        break;
      }
      case NodeKind::ChanType: {
        auto* x = static_cast<const ChanType*>(expr);
        switch (x->dir) {
          case ChanDir::Both:
            Print(kChan);
            break;
          case ChanDir::Recv:
            Print(kArrow, kChan);
            break;
          case ChanDir::Send:
            Print(kChan);
            SetPos(cx_->TokenAfter(Plus(x->begin, 4)));
            Print(kArrow);
            break;
        }
        Print(blank);
        Expr(x->elem);
        break;
      }
      default:
        PrintText("BadExpr");
        break;
    }
  }

  bool PossibleSelectorExpr(const syntax::Expr* expr, int prec1, int depth) {
    if (auto* x = As<syntax::SelectorExpr>(expr)) return SelectorExpr(x, depth, true);
    Expr1(expr, prec1, depth);
    return false;
  }

  // selectorExpr handles a SelectorExpr node and reports whether x spans
  // multiple lines.
  bool SelectorExpr(const syntax::SelectorExpr* x, int depth, bool is_method) {
    Expr1(x->x, kHighestPrec, depth);
    Print(kPeriod);
    if (int line = LineFor(x->sel->begin); pos_.valid() && pos_.line < line) {
      Print(indent, newline);
      SetPos(x->sel->begin);
      PrintName(x->sel);
      if (!is_method) Print(unindent);
      return true;
    }
    SetPos(x->sel->begin);
    PrintName(x->sel);
    return false;
  }

  void Expr0(const syntax::Expr* x, int depth) { Expr1(x, kLowestPrec, depth); }
  void Expr(const syntax::Expr* x) { Expr1(x, kLowestPrec, 1); }

  // --------------------------------------------------------------------------
  // Statements

  // Print the statement list indented, but without a newline after the last
  // statement. Extra line breaks between statements in the source are
  // respected but at most one empty line is printed between statements.
  template <class T>
  void StmtList(List<T> list, int nindent, bool next_is_rbrace) {
    if (nindent > 0) Print(indent);
    int line = 0;
    int i = 0;
    for (const Node* s : list) {
      // nindent == 0 only for lists of switch/select case clauses; in those
      // cases each clause is a new section
      if (!output_.empty() || !wsbuf_.empty() || i > 0) {
        // only print line break if we are not at the beginning of the output
        // (i.e., we are not printing only a partial program)
        Linebreak(LineFor(s->begin), 1, ignore, i == 0 || nindent == 0 || LinesFrom(line) > 0);
      }
      RecordLine(&line);
      if (s->kind == NodeKind::EmptyStmt) {
        // Gordian: go/printer drops empty statements; print them so that the
        // tree is unchanged.
        SetPos(s->begin);
        Print(kSemicolon);
      } else {
        Stmt_(s, next_is_rbrace && i == static_cast<int>(list.size()) - 1);
      }
      // labeled statements put labels on a separate line, but here we only
      // care about the start line of the actual statement without label -
      // correct line for each label
      for (const Node* t = s; t->kind == NodeKind::LabeledStmt;
           t = static_cast<const LabeledStmt*>(t)->stmt) {
        line++;
      }
      i++;
    }
    if (nindent > 0) Print(unindent);
  }

  // block prints a block; it always spans at least two lines.
  template <class T>
  void Block(Pos lbrace, List<T> list, Pos rbrace, int nindent) {
    SetPos(lbrace);
    Print(kLbrace);
    StmtList(list, nindent, true);
    Linebreak(LineFor(rbrace), 1, ignore, true);
    SetPos(rbrace);
    Print(kRbrace);
  }

  void Block(const BlockStmt* b, int nindent) {
    Block(b->begin, b->list, BlockRbrace(b), nindent);
  }

  static Pos BlockRbrace(const BlockStmt* b) {
    if (b->rbrace != kNoPos) return b->rbrace;
    return LastByte(b->end);
  }

  void ControlClause(bool is_for, const syntax::Stmt* init, const syntax::Expr* expr,
                     const syntax::Stmt* post) {
    Print(blank);
    bool needs_blank = false;
    if (init == nullptr && post == nullptr) {
      // no semicolons required
      if (expr != nullptr) {
        Expr(expr);  // Gordian: no stripParens
        needs_blank = true;
      }
    } else {
      // all semicolons required (they are not separators, print them
      // explicitly)
      if (init != nullptr) Stmt_(init, false);
      Print(kSemicolon, blank);
      if (expr != nullptr) {
        Expr(expr);
        needs_blank = true;
      }
      if (is_for) {
        Print(kSemicolon, blank);
        needs_blank = false;
        if (post != nullptr) {
          Stmt_(post, false);
          needs_blank = true;
        }
      }
    }
    if (needs_blank) Print(blank);
  }

  // indentList reports whether an expression list would look better if it
  // were indented wholesale (starting with the very first element, rather
  // than starting at the first line break).
  bool IndentList(Exprs list) {
    // Heuristic: indentList reports whether there are more than one multi-
    // line element in the list, or if there is any element that is not
    // starting on the same line as the previous one ends.
    if (list.size() >= 2) {
      int b = LineFor(list[0]->begin);
      int e = LineFor(list.back()->end);
      if (0 < b && b < e) {
        // list spans multiple lines
        int n = 0;  // multi-line element count
        int line = b;
        for (const syntax::Expr* x : list) {
          int xb = LineFor(x->begin);
          int xe = LineFor(x->end);
          if (line < xb) {
            // x is not starting on the same line as the previous one ended
            return true;
          }
          if (xb < xe) n++;  // x is a multi-line element
          line = xe;
        }
        return n > 1;
      }
    }
    return false;
  }

  // The header of a range loop: `k, v := range x` (go/ast's RangeStmt).
  void RangeHeader(const RangeClause* r) {
    if (r->lhs != nullptr) {
      Exprs lhs = ListOf(r->lhs);
      for (size_t i = 0; i < lhs.size(); i++) {
        if (i > 0) {
          // use position of value following the comma as comma position for
          // correct comment placement
          SetPos(lhs[i]->begin);
          Print(kComma, blank);
        }
        Expr(lhs[i]);
      }
      Print(blank);
      SetPos(cx_->TokenAfter(r->lhs->end));
      Print(r->def ? kDefine : kAssign, blank);
    }
    SetPos(r->lhs == nullptr ? r->begin : kNoPos);
    Print(kRange, blank);
    Expr(r->x);
  }

  void Stmt_(const Node* stmt, bool next_is_rbrace) {
    if (StackIsLow()) [[unlikely]] {
      RunOnNewStack([&] { StmtImpl(stmt, next_is_rbrace); });
      return;
    }
    StmtImpl(stmt, next_is_rbrace);
  }

  void StmtImpl(const Node* stmt, bool next_is_rbrace) {
    SetPos(stmt->begin);
    switch (stmt->kind) {
      case NodeKind::DeclStmt: {
        auto* s = static_cast<const DeclStmt*>(stmt);
        for (const DeclUnit& u : DeclUnits({s->decls.data(), s->decls.size()})) GenDecl(u, false);
        break;
      }
      case NodeKind::EmptyStmt:
        // nothing to do
        break;
      case NodeKind::LabeledStmt: {
        auto* s = static_cast<const LabeledStmt*>(stmt);
        // a "correcting" unindent immediately following a line break is
        // applied before the line break if there is no comment between (see
        // writeWhitespace)
        Print(unindent);
        Expr(s->label);
        SetPos(cx_->TokenAfter(s->label->end));
        Print(kColon, indent);
        if (s->stmt->kind == NodeKind::EmptyStmt) {
          if (!next_is_rbrace) {
            Print(newline);
            SetPos(s->stmt->begin);
            Print(kSemicolon);
            break;
          }
        } else {
          Linebreak(LineFor(s->stmt->begin), 1, ignore, true);
        }
        Stmt_(s->stmt, next_is_rbrace);
        break;
      }
      case NodeKind::ExprStmt:
        Expr0(static_cast<const ExprStmt*>(stmt)->x, 1);
        break;
      case NodeKind::SendStmt: {
        auto* s = static_cast<const SendStmt*>(stmt);
        Expr0(s->chan, 1);
        Print(blank);
        SetPos(cx_->TokenAfter(s->chan->end));
        Print(kArrow, blank);
        Expr0(s->value, 1);
        break;
      }
      case NodeKind::AssignStmt: {
        auto* s = static_cast<const AssignStmt*>(stmt);
        Pos tok_pos = cx_->TokenAfter(s->lhs->end);
        if (s->rhs == nullptr) {
          // IncDecStmt
          Expr0(s->lhs, 2);
          SetPos(tok_pos);
          Print(s->op == Op::Add ? kInc : kDec);
          break;
        }
        Exprs lhs = ListOf(s->lhs), rhs = ListOf(s->rhs);
        int depth = 1;
        if (lhs.size() > 1 && rhs.size() > 1) depth++;
        ExprList(s->begin, lhs, depth, 0, tok_pos);
        Print(blank);
        SetPos(tok_pos);
        if (s->op == Op::Def) {
          Print(kDefine);
        } else if (s->op == Op::None) {
          Print(kAssign);
        } else {
          Print(Tok{TK::Other, AssignOpText(s->op)});
        }
        Print(blank);
        ExprList(tok_pos, rhs, depth, 0, kNoPos);
        break;
      }
      case NodeKind::CallStmt: {
        auto* s = static_cast<const CallStmt*>(stmt);
        Print(s->tok == Token::Defer ? kDefer : kGo, blank);
        Expr(s->call);
        break;
      }
      case NodeKind::ReturnStmt: {
        auto* s = static_cast<const ReturnStmt*>(stmt);
        Print(kReturn);
        if (s->results != nullptr) {
          Print(blank);
          Exprs results = ListOf(s->results);
          // Use indentList heuristic to make corner cases look better
          // (go/printer; Go issue 1207). A more systematic approach would
          // always indent, but this would cause significant reformatting of
          // the code base and not necessarily lead to more nicely formatted
          // code in general.
          if (IndentList(results)) {
            Print(indent);
            // Use NoPos so that a newline never goes before the results (see
            // issue #32854).
            ExprList(kNoPos, results, 1, kNoIndent, kNoPos);
            Print(unindent);
          } else {
            ExprList(kNoPos, results, 1, 0, kNoPos);
          }
        }
        break;
      }
      case NodeKind::BranchStmt: {
        auto* s = static_cast<const BranchStmt*>(stmt);
        switch (s->tok) {
          case Token::Break: Print(kBreak); break;
          case Token::Continue: Print(kContinue); break;
          case Token::Goto: Print(kGoto); break;
          default: Print(kFallthrough); break;
        }
        if (s->label != nullptr) {
          Print(blank);
          Expr(s->label);
        }
        break;
      }
      case NodeKind::BlockStmt:
        Block(static_cast<const BlockStmt*>(stmt), 1);
        break;
      case NodeKind::IfStmt: {
        auto* s = static_cast<const IfStmt*>(stmt);
        Print(kIf);
        ControlClause(false, s->init, s->cond, nullptr);
        Block(s->then, 1);
        if (s->else_ != nullptr) {
          Print(blank, kElse, blank);
          if (s->else_->kind == NodeKind::BlockStmt || s->else_->kind == NodeKind::IfStmt) {
            Stmt_(s->else_, next_is_rbrace);
          } else {
            // This can only happen with an incorrectly constructed AST.
            // Permit it but print so that it can be parsed without errors.
            Print(kLbrace, indent, formfeed);
            Stmt_(s->else_, true);
            Print(unindent, formfeed, kRbrace);
          }
        }
        break;
      }
      case NodeKind::CaseClause: {
        auto* s = static_cast<const CaseClause*>(stmt);
        if (s->cases != nullptr) {
          Print(kCase, blank);
          ExprList(s->begin, ListOf(s->cases), 1, 0, s->colon);
        } else {
          Print(kDefault);
        }
        SetPos(ClauseColon(s->colon, s->cases, s->begin, 7));
        Print(kColon);
        StmtList(s->body, 1, next_is_rbrace);
        break;
      }
      case NodeKind::SwitchStmt: {
        auto* s = static_cast<const SwitchStmt*>(stmt);
        Print(kSwitch);
        ControlClause(false, s->init, s->tag, nullptr);
        Block(HeaderLbrace(Plus(s->begin, 6), s->tag != nullptr ? s->tag->end
                                          : s->init != nullptr ? s->init->end
                                                               : kNoPos),
              s->body, ClosingRbrace(s->rbrace, s->end), 0);
        break;
      }
      case NodeKind::CommClause: {
        auto* s = static_cast<const CommClause*>(stmt);
        if (s->comm != nullptr) {
          Print(kCase, blank);
          Stmt_(s->comm, false);
        } else {
          Print(kDefault);
        }
        SetPos(ClauseColon(s->colon, s->comm, s->begin, 7));
        Print(kColon);
        StmtList(s->body, 1, next_is_rbrace);
        break;
      }
      case NodeKind::SelectStmt: {
        auto* s = static_cast<const SelectStmt*>(stmt);
        Print(kSelect, blank);
        Pos lbrace = HeaderLbrace(Plus(s->begin, 6), kNoPos);
        Pos rbrace = ClosingRbrace(s->rbrace, s->end);
        if (s->body.empty() && !CommentBefore(PosFor(rbrace))) {
          // print empty select statement w/o comments on one line
          SetPos(lbrace);
          Print(kLbrace);
          SetPos(rbrace);
          Print(kRbrace);
        } else {
          Block(lbrace, s->body, rbrace, 0);
        }
        break;
      }
      case NodeKind::ForStmt: {
        auto* s = static_cast<const ForStmt*>(stmt);
        if (auto* r = As<RangeClause>(s->init)) {
          Print(kFor, blank);
          RangeHeader(r);
          Print(blank);
          Block(s->body, 1);
          break;
        }
        Print(kFor);
        ControlClause(true, s->init, s->cond, s->post);
        Block(s->body, 1);
        break;
      }
      case NodeKind::RangeClause:
        RangeHeader(static_cast<const RangeClause*>(stmt));
        break;
      default:
        PrintText("BadStmt");
        break;
    }
  }

  static std::string_view AssignOpText(Op op) {
    switch (op) {
      case Op::Add: return "+=";
      case Op::Sub: return "-=";
      case Op::Or: return "|=";
      case Op::Xor: return "^=";
      case Op::Mul: return "*=";
      case Op::Div: return "/=";
      case Op::Rem: return "%=";
      case Op::And: return "&=";
      case Op::AndNot: return "&^=";
      case Op::Shl: return "<<=";
      case Op::Shr: return ">>=";
      default: return "=";
    }
  }

  // The colon of a case clause: recorded, or found after the case list, or
  // after the `default` keyword (of length 7) at begin.
  Pos ClauseColon(Pos colon, const Node* cases, Pos begin, uint32_t default_len) {
    if (colon != kNoPos) return colon;
    if (cases != nullptr) return cx_->TokenAfter(cases->end);
    return cx_->TokenAfter(Plus(begin, default_len));
  }

  // The `{` of a switch or select: the first '{' after the header.
  Pos HeaderLbrace(Pos after_keyword, Pos header_end) {
    return cx_->FindAfter(header_end != kNoPos ? header_end : after_keyword, '{');
  }

  static Pos ClosingRbrace(Pos rbrace, Pos end) {
    if (rbrace != kNoPos) return rbrace;
    return LastByte(end);
  }

  // --------------------------------------------------------------------------
  // Declarations

  // The keyword position of a declaration unit (go/ast's GenDecl.TokPos).
  Pos KeywordPos(const DeclUnit& u) {
    const Decl* d = u.decls[0];
    std::string_view kw = DeclTok(d).text;
    if (d->kind == NodeKind::FuncDecl) return d->begin;
    if (d->group != nullptr) {
      Pos p = cx_->WordBefore(d->group->lparen);
      return cx_->WordAt(p, kw) ? p : kNoPos;
    }
    if (cx_->WordAt(d->begin, kw)) return d->begin;
    Pos p = cx_->WordBefore(SpecPos(d));
    return cx_->WordAt(p, kw) ? p : kNoPos;
  }

  // The keepTypeColumn function determines if the type column of a series
  // of consecutive const or var declarations must be kept, or if
  // initialization values (V) can be placed in the type column (T) instead.
  // The i'th entry in the result is true if the type column in spec[i] must
  // be kept. (See go/printer/nodes.go for the worked example.)
  static std::vector<bool> KeepTypeColumn(std::span<Decl* const> specs) {
    std::vector<bool> m(specs.size());
    auto populate = [&](size_t i, size_t j, bool keep_type) {
      if (keep_type) {
        for (; i < j; i++) m[i] = true;
      }
    };
    int64_t i0 = -1;  // if i0 >= 0 we are in a run and i0 is the start of the run
    bool keep_type = false;
    for (size_t i = 0; i < specs.size(); i++) {
      auto [type, values] = TypeAndValues(specs[i]);
      if (values != nullptr) {
        if (i0 < 0) {
          // start of a run of ValueSpecs with non-nil Values
          i0 = static_cast<int64_t>(i);
          keep_type = false;
        }
      } else if (i0 >= 0) {
        // end of a run
        populate(static_cast<size_t>(i0), i, keep_type);
        i0 = -1;
      }
      if (type != nullptr) keep_type = true;
    }
    if (i0 >= 0) populate(static_cast<size_t>(i0), specs.size(), keep_type);
    return m;
  }

  struct ValueSpecParts {
    List<Name> names;
    syntax::Expr* type;
    syntax::Expr* values;
  };
  static std::pair<syntax::Expr*, syntax::Expr*> TypeAndValues(const Decl* d) {
    if (auto* c = As<ConstDecl>(d)) return {c->type, c->values};
    if (auto* v = As<VarDecl>(d)) return {v->type, v->values};
    return {nullptr, nullptr};
  }
  static List<Name> NamesOf(const Decl* d) {
    if (auto* c = As<ConstDecl>(d)) return c->names;
    if (auto* v = As<VarDecl>(d)) return v->names;
    return {};
  }

  void ValueSpec(const Decl* s, bool keep_type) {
    auto [type, values] = TypeAndValues(s);
    List<Name> names = NamesOf(s);
    IdentList({names.data(), names.size()}, false);  // always present
    int extra_tabs = 3;
    if (type != nullptr || keep_type) {
      Print(vtab);
      extra_tabs--;
    }
    if (type != nullptr) Expr(type);
    if (values != nullptr) {
      Print(vtab, kAssign, blank);
      ExprList(kNoPos, ListOf(values), 1, 0, kNoPos);
      extra_tabs--;
    }
    if (cx_->HasLineComment(SpecEnd(s))) {
      for (; extra_tabs > 0; extra_tabs--) Print(vtab);
    }
  }

  // The parameter n is the number of specs in the group. If do_indent is
  // set, multi-line identifier lists in the spec are indented when the first
  // linebreak is encountered.
  void Spec(const Decl* spec, size_t n, bool do_indent) {
    switch (spec->kind) {
      case NodeKind::ImportDecl: {
        auto* s = static_cast<const ImportDecl*>(spec);
        if (s->local_pkg_name != nullptr) {
          Expr(s->local_pkg_name);
          Print(blank);
        }
        Expr(s->path);  // Gordian: the path is printed as written
        break;
      }
      case NodeKind::ConstDecl:
      case NodeKind::VarDecl: {
        auto [type, values] = TypeAndValues(spec);
        List<Name> names = NamesOf(spec);
        IdentList({names.data(), names.size()}, do_indent);  // always present
        if (type != nullptr) {
          Print(blank);
          Expr(type);
        }
        if (values != nullptr) {
          Print(blank, kAssign, blank);
          ExprList(kNoPos, ListOf(values), 1, 0, kNoPos);
        }
        break;
      }
      case NodeKind::TypeDecl: {
        auto* s = static_cast<const TypeDecl*>(spec);
        Expr(s->name);
        if (!s->tparams.empty()) {
          Brackets br;
          br.open = cx_->TokenAfter(s->name->end);
          br.close = cx_->FindAfter(LastEnd(s->tparams, Plus(br.open, 1)), ']');
          Parameters(GroupFields(s->tparams), br, ParamMode::kTypeTParam);
        }
        if (n == 1) {
          Print(blank);
        } else {
          Print(vtab);
        }
        if (s->alias) Print(kAssign, blank);
        Expr(s->type);
        break;
      }
      default:
        break;
    }
  }

  void GenDecl(const DeclUnit& u, bool as_single) {
    const Decl* d0 = u.decls[0];
    if (d0->kind == NodeKind::FuncDecl) {
      FuncDecl(static_cast<const syntax::FuncDecl*>(d0));
      return;
    }
    SetPos(KeywordPos(u));
    Print(DeclTok(d0), blank);
    if (u.grouped() && !as_single) {
      // group of parenthesized declarations
      SetPos(d0->group->lparen);
      Print(kLparen);
      size_t n = u.decls.size();
      if (n > 0) {
        Print(indent, formfeed);
        if (n > 1 && (d0->kind == NodeKind::ConstDecl || d0->kind == NodeKind::VarDecl)) {
          // two or more grouped const/var declarations: determine if the
          // type column must be kept
          std::vector<bool> keep_type = KeepTypeColumn(u.decls);
          int line = 0;
          for (size_t i = 0; i < n; i++) {
            if (i > 0) Linebreak(LineFor(SpecPos(u.decls[i])), 1, ignore, LinesFrom(line) > 0);
            RecordLine(&line);
            ValueSpec(u.decls[i], keep_type[i]);
          }
        } else {
          int line = 0;
          for (size_t i = 0; i < n; i++) {
            if (i > 0) Linebreak(LineFor(SpecPos(u.decls[i])), 1, ignore, LinesFrom(line) > 0);
            RecordLine(&line);
            Spec(u.decls[i], n, false);
          }
        }
        Print(unindent, formfeed);
      }
      SetPos(d0->group->rparen);
      Print(kRparen);
    } else {
      // single declaration
      Spec(d0, 1, true);
    }
  }

  // nodeSize determines the size of n in chars after formatting. The result
  // is <= max_size if the node fits on one line with at most max_size chars
  // and the formatted output doesn't contain any control chars. Otherwise,
  // the result is > max_size.
  int NodeSize(const Node* n, int max_size);

  // numLines returns the number of lines spanned by node n in the original
  // source.
  int NumLines(Pos from, Pos to) {
    if (from != kNoPos && to != kNoPos) {
      int a = LineFor(from), b = LineFor(to);
      if (a > 0 && b > 0) return b - a + 1;
    }
    return kInfinity;
  }

  // bodySize is like nodeSize but it is specialized for block statements.
  int BodySize(const BlockStmt* b, int max_size) {
    Pos pos1 = b->begin;
    Pos pos2 = BlockRbrace(b);
    if (pos1 != kNoPos && pos2 != kNoPos && LineFor(pos1) != LineFor(pos2)) {
      // opening and closing brace are on different lines - don't make it a one-liner
      return max_size + 1;
    }
    if (b->list.size() > 5) {
      // too many statements - don't make it a one-liner
      return max_size + 1;
    }
    for (const syntax::Stmt* s : b->list) {
      // Gordian: an empty statement would vanish on a one-line body.
      if (s->kind == NodeKind::EmptyStmt) return max_size + 1;
    }
    // otherwise, estimate body size
    int body_size = CommentSizeBefore(PosFor(pos2));
    for (size_t i = 0; i < b->list.size(); i++) {
      if (body_size > max_size) break;  // no need to continue
      if (i > 0) body_size += 2;        // space for a semicolon and blank
      body_size += NodeSize(b->list[i], max_size);
    }
    return body_size;
  }

  // funcBody prints a function body following a function header of given
  // headerSize. If the header's and block's size are "small enough" and the
  // block is "simple enough", the block is printed on the current line,
  // without line breaks, spaced from the header by sep. Otherwise the
  // block's opening "{" is printed on the current line, followed by lines
  // for the block's statements and its closing "}".
  void FuncBody(int header_size, WS sep, const BlockStmt* b) {
    if (b == nullptr) return;
    // save/restore composite literal nesting level
    int saved_level = level_;
    level_ = 0;
    constexpr int kMaxSize = 100;
    if (header_size + BodySize(b, kMaxSize) <= kMaxSize) {
      Print(sep);
      SetPos(b->begin);
      Print(kLbrace);
      if (!b->list.empty()) {
        Print(blank);
        for (size_t i = 0; i < b->list.size(); i++) {
          if (i > 0) Print(kSemicolon, blank);
          Stmt_(b->list[i], i == b->list.size() - 1);
        }
        Print(blank);
      }
      Print(ModeToggle{kNoExtraLinebreak});
      SetPos(BlockRbrace(b));
      Print(kRbrace, ModeToggle{kNoExtraLinebreak});
      level_ = saved_level;
      return;
    }
    if (sep != ignore) Print(blank);  // always use blank
    Block(b, 1);
    level_ = saved_level;
  }

  // distanceFrom returns the column difference between the current output
  // position and start_out_col. If the start position is on a different
  // line from the current position (or either is unknown), the result is
  // infinity.
  int DistanceFrom(Pos start_pos, int start_out_col) {
    if (start_pos != kNoPos && pos_.valid() && PosFor(start_pos).valid() &&
        PosFor(start_pos).line == pos_.line) {
      return out_.column - start_out_col;
    }
    return kInfinity;
  }

  void FuncDecl(const syntax::FuncDecl* d) {
    SetPos(d->begin);
    Print(kFunc, blank);
    // We have to save startCol only after emitting FUNC; otherwise it can be
    // on a different line (all whitespace preceding the FUNC is emitted only
    // when the FUNC is emitted).
    int start_col = out_.column - 5;
    if (d->recv != nullptr) {
      // method: print receiver
      Field* recv = d->recv;
      Brackets br;
      br.open = cx_->TokenAfter(Plus(d->begin, 4));
      br.close = cx_->FindAfter(LastEnd(List<Field>(&recv, 1), kNoPos), ')');
      Parameters(GroupFields(List<Field>(&recv, 1)), br, ParamMode::kFuncParam);
      Print(blank);
    }
    Expr(d->name);
    Signature(d->tparams, d->type, FindSigBrackets(d->name->end, d->tparams, d->type));
    FuncBody(DistanceFrom(d->begin, start_col), vtab, d->body);
  }

  void DeclList(std::span<Decl* const> list) {
    Tok tok{TK::Illegal, ""};
    for (const DeclUnit& u : DeclUnits(list)) {
      Tok prev = tok;
      tok = DeclTok(u.decls[0]);
      Pos kw = KeywordPos(u);
      // If the declaration token changed (e.g., from CONST to TYPE) or the
      // next declaration has documentation associated with it, print an
      // empty line between top-level declarations.
      if (!output_.empty()) {
        int min = 1;
        if (prev.text != tok.text || cx_->HasDoc(kw)) min = 2;
        // start a new section if the next declaration is a function that
        // spans multiple lines (see also issue #19544)
        const Decl* last = u.decls.back();
        Linebreak(LineFor(kw), min, ignore,
                  tok.text == "func" && NumLines(kw, last->end) > 1);
      }
      GenDecl(u, false);
    }
  }

  void File_(const File& f) {
    // The package clause is the file's first token.
    Pos pkg = kNoPos;
    if (f.source != nullptr && cx_->has_source()) pkg = cx_->TokenAfter(f.source->base());
    SetPos(pkg);
    Print(kPackage, blank);
    Expr(f.pkg_name);
    DeclList({f.decls.data(), f.decls.size()});
    Print(newline);
  }

  Context* cx_;
  bool raw_;

  std::string output_;
  int indent_ = 0;         // current indentation
  int level_ = 0;          // level == 0: outside composite literal; level > 0: inside
  unsigned mode_ = 0;      // current printer mode
  bool end_alignment_ = false;  // if set, terminate alignment immediately
  bool implied_semi_ = false;   // if set, a linebreak implies a semicolon
  TK last_tok_ = TK::Illegal;   // last token printed (Illegal if it's whitespace)
  TK prev_open_ = TK::Illegal;  // previous non-brace "open" token: ( or [ or Illegal
  TK last_real_tok_ = TK::Illegal;  // last token printed, whitespace ignored
  std::vector<WS> wsbuf_;       // delayed white space

  SrcPos pos_;   // current position in AST (source) space
  SrcPos out_;   // current position in output space
  SrcPos last_;  // value of pos_ after calling WriteString
  int* line_ptr_ = nullptr;  // if set, record out_.line for the next token here
  bool pos_set_ = false;     // pos_ was set from the tree for the next token
  int explicit_results_ = 0;  // > 0: print empty result lists as "()"

  // Comment groups to intersperse: [cindex_, group_end_).
  int cindex_ = 0;
  int group_end_ = 0;
  int cur_group_ = -1;              // the current group, or -1
  int comment_offset_ = kInfinity;  // offset of the current group, or infinity
  bool comment_newline_ = false;    // the current group contains newlines
};

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

}  // namespace

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
