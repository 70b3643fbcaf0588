// This file implements the printer's layout of declarations (go/printer's
// nodes.go): import, const, type and var specs alone or grouped, function
// declarations with their bodies, and the file. See printer.cc for the
// printer as a whole.
#include "gordian/syntax/printer_internal.h"

namespace gordian::syntax::printer_internal {

// The keyword position of a declaration unit (go/ast's GenDecl.TokPos).
Pos Printer::KeywordPos(const DeclUnit& u) {
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
std::vector<bool> Printer::KeepTypeColumn(std::span<Decl* const> specs) {
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

std::pair<syntax::Expr*, syntax::Expr*> Printer::TypeAndValues(const Decl* d) {
  if (auto* c = As<ConstDecl>(d)) return {c->type, c->values};
  if (auto* v = As<VarDecl>(d)) return {v->type, v->values};
  return {nullptr, nullptr};
}

List<Name> Printer::NamesOf(const Decl* d) {
  if (auto* c = As<ConstDecl>(d)) return c->names;
  if (auto* v = As<VarDecl>(d)) return v->names;
  return {};
}

void Printer::ValueSpec(const Decl* s, bool keep_type) {
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
void Printer::Spec(const Decl* spec, size_t n, bool do_indent) {
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

void Printer::GenDecl(const DeclUnit& u, bool as_single) {
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

// numLines returns the number of lines spanned by node n in the original
// source.
int Printer::NumLines(Pos from, Pos to) {
  if (from != kNoPos && to != kNoPos) {
    int a = LineFor(from), b = LineFor(to);
    if (a > 0 && b > 0) return b - a + 1;
  }
  return kInfinity;
}

// bodySize is like nodeSize but it is specialized for block statements.
int Printer::BodySize(const BlockStmt* b, int max_size) {
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
void Printer::FuncBody(int header_size, WS sep, const BlockStmt* b) {
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
int Printer::DistanceFrom(Pos start_pos, int start_out_col) {
  if (start_pos != kNoPos && pos_.valid() && PosFor(start_pos).valid() &&
      PosFor(start_pos).line == pos_.line) {
    return out_.column - start_out_col;
  }
  return kInfinity;
}

void Printer::FuncDecl(const syntax::FuncDecl* d) {
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

void Printer::DeclList(std::span<Decl* const> list) {
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

void Printer::File_(const File& f) {
  // The package clause is the file's first token.
  Pos pkg = kNoPos;
  if (f.source != nullptr && cx_->has_source()) pkg = cx_->TokenAfter(f.source->base());
  SetPos(pkg);
  Print(kPackage, blank);
  Expr(f.pkg_name);
  DeclList({f.decls.data(), f.decls.size()});
  Print(newline);
}

}  // namespace gordian::syntax::printer_internal
