// This file implements the printer's layout of parameter lists, function
// signatures, and struct and interface field lists (go/printer's nodes.go).
// See printer.cc for the printer as a whole.
#include "gordian/syntax/printer_internal.h"

namespace gordian::syntax::printer_internal {

void Printer::Parameters(const std::vector<FieldGroup>& fields, Brackets br, ParamMode mode) {
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
bool Printer::CombinesWithName(const syntax::Expr* x) {
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
bool Printer::IsTypeElem(const syntax::Expr* x) {
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

Printer::SigBrackets Printer::FindSigBrackets(Pos after, List<Field> tparams, const FuncType* t) {
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
Pos Printer::LastEnd(List<Field> list, Pos otherwise) {
  if (list.empty()) return otherwise;
  const Field* f = list.back();
  return f->type != nullptr ? f->type->end : f->name != nullptr ? f->name->end : f->end;
}

void Printer::Signature(List<Field> tparams, const FuncType* sig, const SigBrackets& br) {
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

int Printer::IdentListSize(const std::vector<Name*>& list, int max_size) {
  int size = 0;
  for (size_t i = 0; i < list.size(); i++) {
    if (i > 0) size += 2;  // ", "
    for (unsigned char c : list[i]->value) size += (c & 0xC0) != 0x80;
    if (size >= max_size) break;
  }
  return size;
}

bool Printer::IsOneLineFieldList(const std::vector<FieldGroup>& list) {
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

void Printer::FieldList(const std::vector<FieldGroup>& list, Pos lbrace, Pos rbrace,
                        bool is_struct) {
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

// A type: one case per type kind (called by Expr1Impl, which has set the
// position).
void Printer::Type_(const syntax::Expr* expr) {
  switch (expr->kind) {
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

}  // namespace gordian::syntax::printer_internal
