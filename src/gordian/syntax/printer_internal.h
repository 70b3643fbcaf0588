// This file declares the printer's internals, shared by the files that
// implement it: source positions and comment groups (Context), the
// printer's tokens and whitespace, the helpers on nodes that several layouts
// use, and the Printer class itself. printer.cc has the entry points and the
// output filters; printer_layout.cc the comments and whitespace (go/printer's
// printer.go); printer_exprs.cc, printer_types.cc, printer_stmts.cc and
// printer_decls.cc the node layouts (go/printer's nodes.go). Only the
// printer's files include this header.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"

namespace gordian::syntax::printer_internal {

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

inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// p + n, or kNoPos for kNoPos (a node without positions).
inline Pos Plus(Pos p, uint32_t n) { return p == kNoPos ? kNoPos : p + n; }
// The last byte of a node ending at end (its closing token), or kNoPos.
inline Pos LastByte(Pos end) { return end == kNoPos ? kNoPos : end - 1; }

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

inline Tok OpTok(Op op) {
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
inline Exprs ListOf(Expr* const& x) {
  if (x == nullptr) return {};
  if (x->kind == NodeKind::ListExpr) {
    auto* l = static_cast<ListExpr*>(x);
    return {l->elems.data(), l->elems.size()};
  }
  return {&x, 1};
}

inline bool IsUnary(const Node* n, Op op) {
  auto* o = As<Operation>(n);
  return o != nullptr && o->y == nullptr && o->op == op;
}
inline bool IsBinary(const Node* n) {
  auto* o = As<Operation>(n);
  return o != nullptr && o->y != nullptr;
}

inline int Precedence(Op op) {
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

inline std::vector<FieldGroup> GroupFields(List<Field> fields, List<BasicLit> tags = {}) {
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

inline int NumFields(const std::vector<FieldGroup>& groups) {
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
inline std::vector<DeclUnit> DeclUnits(std::span<Decl* const> decls) {
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

inline Tok DeclTok(const Decl* d) {
  switch (d->kind) {
    case NodeKind::ImportDecl: return kImport;
    case NodeKind::ConstDecl: return kConst;
    case NodeKind::TypeDecl: return kType;
    case NodeKind::VarDecl: return kVar;
    default: return kFunc;
  }
}

// The first position of a spec (go/ast's Spec.Pos()).
inline Pos SpecPos(const Decl* d) {
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
inline Pos SpecEnd(const Decl* d) {
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
  Printer(Context* cx, bool raw, bool with_comments);
  void LimitComments(Pos begin, Pos end);
  void PrintFileNode(const File& f);
  void PrintAnyNode(const Node* n);

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

  void NextComment();
  bool CommentBefore(SrcPos next);
  int CommentSizeBefore(SrcPos next);

  void RecordLine(int* line_ptr) { line_ptr_ = line_ptr; }
  int LinesFrom(int line) const { return out_.line - line; }

  SrcPos PosFor(Pos p) { return cx_->PosFor(p); }
  int LineFor(Pos p) { return cx_->LineFor(p); }

  void WriteIndent();
  void WriteByte(char ch, int n);
  void WriteString(SrcPos pos, std::string_view s, bool is_lit);
  void WriteCommentPrefix(SrcPos pos, SrcPos next, const Comment* prev, const Comment& c,
                          TK tok);
  void WriteComment(const Comment& c);
  std::pair<bool, bool> WriteCommentSuffix(bool needs_linebreak);
  bool ContainsLinebreak() const;
  std::pair<bool, bool> IntersperseComments(SrcPos next, TK tok);
  void WriteWhitespace(size_t n);
  void FlushTrailing();
  std::pair<bool, bool> Flush(SrcPos next, TK tok);

  // --------------------------------------------------------------------------
  // Printing interface (printer.go's print, one overload per argument kind)

  void TrackOpen();
  void P(WS x);

  void P(ModeToggle m) {
    TrackOpen();
    mode_ ^= m.bits;
  }

  static bool MayCombine(TK prev, char next);
  void P(Tok t);
  void PrintName(const Name* x);
  void PrintLit(const BasicLit* x);
  void PrintText(std::string_view s);
  void Emit(std::string_view data, bool is_lit, bool implied_semi);

  template <class... A>
  void Print(A... args) {
    (P(args), ...);
  }

  void SetPos(Pos p);

  // --------------------------------------------------------------------------
  // Lists, signatures and fields (nodes.go)

  int Linebreak(int line, int min, WS ws, bool new_section);

  // If indent is set, a multi-line identifier list is indented after the
  // first linebreak encountered.
  void IdentList(std::span<Name* const> list, bool do_indent) {
    std::vector<syntax::Expr*> xlist(list.begin(), list.end());
    ExprList(kNoPos, xlist, 1, do_indent ? 0u : unsigned{kNoIndent}, kNoPos);
  }

  void ExprList(Pos prev0, Exprs list, int depth, unsigned mode, Pos next0);
  void Parameters(const std::vector<FieldGroup>& fields, Brackets br, ParamMode mode);
  static bool CombinesWithName(const syntax::Expr* x);
  static bool IsTypeElem(const syntax::Expr* x);

  // The brackets of a signature whose parameter list (or type parameter
  // list, if generic) starts at the first token at or after `after`.
  struct SigBrackets {
    Brackets tparams, params, results;
  };
  SigBrackets FindSigBrackets(Pos after, List<Field> tparams, const FuncType* t);
  static Pos LastEnd(List<Field> list, Pos otherwise);
  void Signature(List<Field> tparams, const FuncType* sig, const SigBrackets& br);
  static int IdentListSize(const std::vector<Name*>& list, int max_size);
  bool IsOneLineFieldList(const std::vector<FieldGroup>& list);
  void FieldList(const std::vector<FieldGroup>& list, Pos lbrace, Pos rbrace, bool is_struct);

  // --------------------------------------------------------------------------
  // Expressions

  static void WalkBinary(const Operation* e, bool* has4, bool* has5, int* max_problem);
  static int Cutoff(const Operation* e, int depth);

  static int DiffPrec(const syntax::Expr* x, int prec) {
    if (!IsBinary(x) || prec != Precedence(static_cast<const Operation*>(x)->op)) return 1;
    return 0;
  }

  static int ReduceDepth(int depth) { return std::max(depth - 1, 1); }

  void BinaryExpr(const Operation* x, int prec1, int cutoff, int depth);
  void Expr1(const syntax::Expr* expr, int prec1, int depth);
  void Expr1Impl(const syntax::Expr* expr, int prec1, int depth);
  void Operation_(const Operation* x, int prec1, int depth);
  void TypeSwitchGuard_(const TypeSwitchGuard* x, int depth);
  void SliceExpr_(const SliceExpr* x, int depth);
  void CallExpr_(const CallExpr* x, int depth);
  void CompositeLit_(const CompositeLit* x, int depth);
  void Type_(const syntax::Expr* expr);
  bool PossibleSelectorExpr(const syntax::Expr* expr, int prec1, int depth);
  bool SelectorExpr(const syntax::SelectorExpr* x, int depth, bool is_method);

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
                     const syntax::Stmt* post);
  bool IndentList(Exprs list);
  void RangeHeader(const RangeClause* r);
  void Stmt_(const Node* stmt, bool next_is_rbrace);
  void StmtImpl(const Node* stmt, bool next_is_rbrace);
  void LabeledStmt_(const LabeledStmt* s, bool next_is_rbrace);
  void AssignStmt_(const AssignStmt* s);
  void ReturnStmt_(const ReturnStmt* s);
  void IfStmt_(const IfStmt* s, bool next_is_rbrace);
  void SelectStmt_(const SelectStmt* s);
  static std::string_view AssignOpText(Op op);
  Pos ClauseColon(Pos colon, const Node* cases, Pos begin, uint32_t default_len);

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

  Pos KeywordPos(const DeclUnit& u);
  static std::vector<bool> KeepTypeColumn(std::span<Decl* const> specs);

  struct ValueSpecParts {
    List<Name> names;
    syntax::Expr* type;
    syntax::Expr* values;
  };
  static std::pair<syntax::Expr*, syntax::Expr*> TypeAndValues(const Decl* d);
  static List<Name> NamesOf(const Decl* d);
  void ValueSpec(const Decl* s, bool keep_type);
  void Spec(const Decl* spec, size_t n, bool do_indent);
  void GenDecl(const DeclUnit& u, bool as_single);

  // nodeSize determines the size of n in chars after formatting. The result
  // is <= max_size if the node fits on one line with at most max_size chars
  // and the formatted output doesn't contain any control chars. Otherwise,
  // the result is > max_size.
  int NodeSize(const Node* n, int max_size);
  int NumLines(Pos from, Pos to);
  int BodySize(const BlockStmt* b, int max_size);
  void FuncBody(int header_size, WS sep, const BlockStmt* b);
  int DistanceFrom(Pos start_pos, int start_out_col);
  void FuncDecl(const syntax::FuncDecl* d);
  void DeclList(std::span<Decl* const> list);
  void File_(const File& f);

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

}  // namespace gordian::syntax::printer_internal
