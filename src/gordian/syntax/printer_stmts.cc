// This file implements the printer's layout of statements (go/printer's
// nodes.go): blocks, statement lists, control clauses and every statement
// kind. See printer.cc for the printer as a whole.
#include "gordian/syntax/printer_internal.h"
#include "gordian/syntax/stack_guard.h"

namespace gordian::syntax::printer_internal {

void Printer::ControlClause(bool is_for, const syntax::Stmt* init, const syntax::Expr* expr,
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
bool Printer::IndentList(Exprs list) {
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
void Printer::RangeHeader(const RangeClause* r) {
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

void Printer::Stmt_(const Node* stmt, bool next_is_rbrace) {
  if (StackIsLow()) [[unlikely]] {
    RunOnNewStack([&] { StmtImpl(stmt, next_is_rbrace); });
    return;
  }
  StmtImpl(stmt, next_is_rbrace);
}

void Printer::StmtImpl(const Node* stmt, bool next_is_rbrace) {
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
    case NodeKind::LabeledStmt:
      LabeledStmt_(static_cast<const LabeledStmt*>(stmt), next_is_rbrace);
      break;
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
    case NodeKind::AssignStmt:
      AssignStmt_(static_cast<const AssignStmt*>(stmt));
      break;
    case NodeKind::CallStmt: {
      auto* s = static_cast<const CallStmt*>(stmt);
      Print(s->tok == Token::Defer ? kDefer : kGo, blank);
      Expr(s->call);
      break;
    }
    case NodeKind::ReturnStmt:
      ReturnStmt_(static_cast<const ReturnStmt*>(stmt));
      break;
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
    case NodeKind::IfStmt:
      IfStmt_(static_cast<const IfStmt*>(stmt), next_is_rbrace);
      break;
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
    case NodeKind::SelectStmt:
      SelectStmt_(static_cast<const SelectStmt*>(stmt));
      break;
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

// A label on a line of its own, unindented, then its statement.
void Printer::LabeledStmt_(const LabeledStmt* s, bool next_is_rbrace) {
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
      return;
    }
  } else {
    Linebreak(LineFor(s->stmt->begin), 1, ignore, true);
  }
  Stmt_(s->stmt, next_is_rbrace);
}

// An assignment, a short variable declaration or an IncDecStmt.
void Printer::AssignStmt_(const AssignStmt* s) {
  Pos tok_pos = cx_->TokenAfter(s->lhs->end);
  if (s->rhs == nullptr) {
    // IncDecStmt
    Expr0(s->lhs, 2);
    SetPos(tok_pos);
    Print(s->op == Op::Add ? kInc : kDec);
    return;
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
}

// return, with its results indented when they span lines.
void Printer::ReturnStmt_(const ReturnStmt* s) {
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
}

// if with its else chain.
void Printer::IfStmt_(const IfStmt* s, bool next_is_rbrace) {
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
}

// select; an empty one without comments stays on one line.
void Printer::SelectStmt_(const SelectStmt* s) {
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
}

std::string_view Printer::AssignOpText(Op op) {
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
Pos Printer::ClauseColon(Pos colon, const Node* cases, Pos begin, uint32_t default_len) {
  if (colon != kNoPos) return colon;
  if (cases != nullptr) return cx_->TokenAfter(cases->end);
  return cx_->TokenAfter(Plus(begin, default_len));
}

}  // namespace gordian::syntax::printer_internal
