// This file implements the printer's layout of expressions (go/printer's
// nodes.go): expression lists, binary expressions with their spacing by
// precedence, and every other expression kind. See printer.cc for the
// printer as a whole.
#include <cmath>

#include "gordian/syntax/printer_internal.h"
#include "gordian/syntax/stack_guard.h"

namespace gordian::syntax::printer_internal {

// Print a list of expressions. If the list spans multiple source lines,
// the original line breaks are respected between expressions.
void Printer::ExprList(Pos prev0, Exprs list, int depth, unsigned mode, Pos next0) {
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

void Printer::WalkBinary(const Operation* e, bool* has4, bool* has5, int* max_problem) {
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

int Printer::Cutoff(const Operation* e, int depth) {
  bool has4 = false, has5 = false;
  int max_problem = 0;
  WalkBinary(e, &has4, &has5, &max_problem);
  if (max_problem > 0) return max_problem + 1;
  if (has4 && has5) return depth == 1 ? 5 : 4;
  return depth == 1 ? 6 : 4;
}

// Format the binary expression: decide the cutoff and then format.
// Let's call depth == 1 Normal mode, and depth > 1 Compact mode.
// (Algorithm suggestion by Russ Cox; see go/printer/nodes.go.)
void Printer::BinaryExpr(const Operation* x, int prec1, int cutoff, int depth) {
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

void Printer::Expr1(const syntax::Expr* expr, int prec1, int depth) {
  if (StackIsLow()) [[unlikely]] {
    RunOnNewStack([&] { Expr1Impl(expr, prec1, depth); });
    return;
  }
  Expr1Impl(expr, prec1, depth);
}

void Printer::Expr1Impl(const syntax::Expr* expr, int prec1, int depth) {
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
    case NodeKind::Operation:
      Operation_(static_cast<const Operation*>(expr), prec1, depth);
      break;
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
    case NodeKind::TypeSwitchGuard:
      TypeSwitchGuard_(static_cast<const TypeSwitchGuard*>(expr), depth);
      break;
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
    case NodeKind::SliceExpr:
      SliceExpr_(static_cast<const SliceExpr*>(expr), depth);
      break;
    case NodeKind::CallExpr:
      CallExpr_(static_cast<const CallExpr*>(expr), depth);
      break;
    case NodeKind::CompositeLit:
      CompositeLit_(static_cast<const CompositeLit*>(expr), depth);
      break;
    case NodeKind::ListExpr: {
      // Only in hand-built trees outside of the places that expect lists.
      auto* x = static_cast<const ListExpr*>(expr);
      ExprList(kNoPos, Exprs(x->elems.data(), x->elems.size()), depth, 0,
               kNoPos);
      break;
    }
    case NodeKind::ArrayType:
    case NodeKind::SliceType:
    case NodeKind::DotsType:
    case NodeKind::StructType:
    case NodeKind::FuncType:
    case NodeKind::InterfaceType:
    case NodeKind::MapType:
    case NodeKind::ChanType:
      Type_(expr);
      break;
    default:
      PrintText("BadExpr");
      break;
  }
}

// A unary or binary operation; a unary `*` is a pointer type or an
// indirection.
void Printer::Operation_(const Operation* x, int prec1, int depth) {
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
}

// As go/ast's AssignStmt `lhs := x.(type)` (or just `x.(type)`).
void Printer::TypeSwitchGuard_(const TypeSwitchGuard* x, int depth) {
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
}

// x[lo:hi] or x[lo:hi:max], with blanks around the colons when the
// indices are binary expressions.
void Printer::SliceExpr_(const SliceExpr* x, int depth) {
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
}

// A call or conversion: fun(args) or fun(args...).
void Printer::CallExpr_(const CallExpr* x, int depth) {
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
}

// A composite literal T{elems}; the type may be omitted inside another
// literal.
void Printer::CompositeLit_(const CompositeLit* x, int depth) {
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
}

bool Printer::PossibleSelectorExpr(const syntax::Expr* expr, int prec1, int depth) {
  if (auto* x = As<syntax::SelectorExpr>(expr)) return SelectorExpr(x, depth, true);
  Expr1(expr, prec1, depth);
  return false;
}

// selectorExpr handles a SelectorExpr node and reports whether x spans
// multiple lines.
bool Printer::SelectorExpr(const syntax::SelectorExpr* x, int depth, bool is_method) {
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

}  // namespace gordian::syntax::printer_internal
