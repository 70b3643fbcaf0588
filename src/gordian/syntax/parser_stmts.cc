// This file implements the parser's statements (Go specification
// "Statements"): simple statements, labeled statements, blocks, if, for,
// switch and select statements with their headers and clauses, and
// statement lists. See parser.cc for the parser as a whole.
#include "gordian/syntax/parser_internal.h"

namespace gordian::syntax::parser_internal {
// ----------------------------------------------------------------------------
// Statements

// SimpleStmt = EmptyStmt | ExpressionStmt | SendStmt | IncDecStmt | Assignment | ShortVarDecl .
SimpleStmt* Parser::simpleStmt(Expr* lhs, Token keyword) {
  if (keyword == Token::For && s_.tok == Token::Range) {
    // Range expr
    return newRangeClause(nullptr, false);
  }

  if (lhs == nullptr) lhs = exprList();

  if (!Is<ListExpr>(lhs) && s_.tok != Token::Assign && s_.tok != Token::Define) {
    // expr
    Pos pos = s_.pos;
    switch (s_.tok) {
      case Token::AssignOp: {
        // lhs op= rhs
        Op op = s_.op;
        next();
        return newAssignStmt(pos, op, lhs, expr());
      }
      case Token::IncOp: {
        // lhs++ or lhs--
        Op op = s_.op;
        next();
        return newAssignStmt(pos, op, lhs, nullptr);
      }
      case Token::Arrow: {
        // lhs <- rhs
        SendStmt* s = make<SendStmt>(pos, lhs->begin);
        next();
        s->chan = lhs;
        s->value = expr();
        return finish(s);
      }
      default: {
        // expr
        ExprStmt* s = make<ExprStmt>(lhs->pos, lhs->begin);
        s->x = lhs;
        s->end = lhs->end;
        return s;
      }
    }
  }

  // expr_list
  switch (s_.tok) {
    case Token::Assign:
    case Token::Define: {
      Pos pos = s_.pos;
      Op op = s_.tok == Token::Define ? Op::Def : Op::None;
      next();

      if (keyword == Token::For && s_.tok == Token::Range) {
        // expr_list op= Range expr
        return newRangeClause(lhs, op == Op::Def);
      }

      // expr_list op= expr_list
      Expr* rhs = exprList();

      if (auto* x = As<TypeSwitchGuard>(rhs); x != nullptr && keyword == Token::Switch &&
                                              op == Op::Def) {
        if (auto* l = As<Name>(lhs)) {
          // switch … lhs := rhs.(type)
          x->lhs = l;
          x->begin = l->begin;
          ExprStmt* s = make<ExprStmt>(x->pos, x->begin);
          s->x = x;
          s->end = x->end;
          return s;
        }
      }

      return newAssignStmt(pos, op, lhs, rhs);
    }

    default: {
      syntaxError("expected := or = or comma");
      advance(Bits({Token::Semi, Token::Rbrace}));
      // make the best of what we have
      if (auto* l = As<ListExpr>(lhs)) lhs = l->elems[0];
      ExprStmt* s = make<ExprStmt>(lhs->pos, lhs->begin);
      s->x = lhs;
      s->end = lhs->end;
      return s;
    }
  }
}

RangeClause* Parser::newRangeClause(Expr* lhs, bool def) {
  RangeClause* r = make<RangeClause>(s_.pos, lhs != nullptr ? lhs->begin : s_.pos);
  next();  // consume Range
  r->lhs = lhs;
  r->def = def;
  r->x = expr();
  return finish(r);
}

AssignStmt* Parser::newAssignStmt(Pos pos, Op op, Expr* lhs, Expr* rhs) {
  AssignStmt* a = make<AssignStmt>(pos, lhs->begin);
  a->op = op;
  a->lhs = lhs;
  a->rhs = rhs;
  return finish(a);
}

Stmt* Parser::labeledStmtOrNull(Name* label) {
  LabeledStmt* s = make<LabeledStmt>(s_.pos, label->begin);
  s->label = label;

  want(Token::Colon);

  if (s_.tok == Token::Rbrace) {
    // We expect a statement (incl. an empty statement), which must be
    // terminated by a semicolon. Because semicolons may be omitted before an
    // Rbrace, seeing an Rbrace implies an empty statement.
    s->stmt = zero<EmptyStmt>(s_.pos);
    finish(s);
    s->end = s->stmt->end;  // the (empty) statement is at the "}", as in go/ast
    return s;
  }

  s->stmt = stmtOrNull();
  if (s->stmt != nullptr) {
    finish(s);
    s->end = std::max(s->end, s->stmt->end);  // the statement may be an explicit ";"
    return s;
  }

  // report error at line of ':' token
  syntaxErrorAt(s->pos, "missing statement after label");
  // we are already at the end of the labeled statement - no need to advance
  return nullptr;  // avoids follow-on errors (see e.g., fixedbugs/bug274.go)
}

// context must be a non-empty string unless we know that s_.tok == Lbrace.
BlockStmt* Parser::blockStmt(std::string_view context) {
  BlockStmt* s = make<BlockStmt>(s_.pos);

  // people coming from C may forget that braces are mandatory in Go
  if (!got(Token::Lbrace)) {
    syntaxErrorf("expected {{ after {}", context);
    advance(Bits({Token::Name, Token::Rbrace}));
    s->rbrace = s_.pos;  // in case we found "}"
    if (got(Token::Rbrace)) return finish(s);
  }

  s->list = stmtList();
  s->rbrace = s_.pos;
  want(Token::Rbrace);
  return finish(s);
}

DeclStmt* Parser::declStmt() {
  DeclStmt* s = make<DeclStmt>(s_.pos);
  Pos kw = s_.pos;
  SpecParser spec = specParser(s_.tok);
  next();  // Const, Type, or Var
  size_t m = mark();
  appendGroup(kw, spec);
  s->decls = take<Decl>(m);
  return finish(s);
}

Stmt* Parser::forStmt() {
  ForStmt* s = make<ForStmt>(s_.pos);
  header(Token::For, &s->init, &s->cond, &s->post);
  s->body = blockStmt("for clause");
  return finish(s);
}

void Parser::header(Token keyword, SimpleStmt** init, Expr** cond, SimpleStmt** post) {
  *init = nullptr;
  *cond = nullptr;
  if (post != nullptr) *post = nullptr;
  want(keyword);

  if (s_.tok == Token::Lbrace) {
    if (keyword == Token::If) {
      syntaxError("missing condition in if statement");
      *cond = badExpr();
    }
    return;
  }
  // s_.tok != Lbrace

  int outer = xnest_;
  xnest_ = -1;

  if (s_.tok != Token::Semi) {
    // accept potential varDecl but complain
    if (got(Token::Var)) {
      syntaxErrorf("var declaration not allowed in {} initializer", TokenString(keyword));
    }
    *init = simpleStmt(nullptr, keyword);
    // If we have a range clause, we are done (can only happen for keyword == For).
    if (Is<RangeClause>(*init)) {
      xnest_ = outer;
      return;
    }
  }

  SimpleStmt* condStmt = nullptr;
  Pos semiPos = kNoPos;
  std::string_view semiLit;  // valid if semiPos != kNoPos
  if (s_.tok != Token::Lbrace) {
    if (s_.tok == Token::Semi) {
      semiPos = s_.pos;
      semiLit = s_.lit;
      next();
    } else {
      // asking for a '{' rather than a ';' here leads to a better error message
      want(Token::Lbrace);
      if (s_.tok != Token::Lbrace) {
        advance(Bits({Token::Lbrace, Token::Rbrace}));  // for better synchronization
      }
    }
    if (keyword == Token::For) {
      if (s_.tok != Token::Semi) {
        if (s_.tok == Token::Lbrace) {
          syntaxError("expected for loop condition");
          goto done;
        }
        condStmt = simpleStmt(nullptr, Token::EOF_ /* range not permitted */);
      }
      want(Token::Semi);
      if (s_.tok != Token::Lbrace) {
        SimpleStmt* p = simpleStmt(nullptr, Token::EOF_ /* range not permitted */);
        if (post != nullptr) *post = p;
        if (auto* a = As<AssignStmt>(p); a != nullptr && a->op == Op::Def) {
          syntaxErrorAt(a->pos, "cannot declare in post statement of for loop");
        }
      }
    } else if (s_.tok != Token::Lbrace) {
      condStmt = simpleStmt(nullptr, keyword);
    }
  } else {
    condStmt = *init;
    *init = nullptr;
  }

done:
  // unpack condStmt
  if (condStmt == nullptr) {
    if (keyword == Token::If && semiPos != kNoPos) {
      if (semiLit != "semicolon") {
        syntaxErrorAtf(semiPos, "unexpected {}, expected {{ after if clause", semiLit);
      } else {
        syntaxErrorAt(semiPos, "missing condition in if statement");
      }
      *cond = zero<BadExpr>(semiPos);
    }
  } else if (auto* es = As<ExprStmt>(condStmt)) {
    *cond = es->x;
  } else {
    badCondition(condStmt);
  }

  xnest_ = outer;
}

// A common syntax error is to write '=' instead of '==', which turns an
// expression into an assignment. Provide a more explicit error message in
// that case to prevent further confusion.
void Parser::badCondition(SimpleStmt* condStmt) {
  std::string str;
  if (auto* as = As<AssignStmt>(condStmt); as != nullptr && as->op == Op::None &&
                                           as->rhs != nullptr) {
    // Emphasize complex Lhs and Rhs of assignment with parentheses to highlight '='.
    str = fmt::format("assignment {} = {}", emphasize(as->lhs), emphasize(as->rhs));
  } else {
    str = stmtString(condStmt);
  }
  syntaxErrorAtf(condStmt->pos, "cannot use {} as value", str);
}

// IfStmt = "if" [ SimpleStmt ";" ] Expression Block [ "else" ( IfStmt | Block ) ] .
// An else-if chain is parsed iteratively, but each link counts as a level
// of nesting (the tree is as deep as the chain is long).
IfStmt* Parser::ifStmt() {
  IfStmt* first = nullptr;
  IfStmt* prev = nullptr;
  int links = 0;
  for (;;) {
    IfStmt* s = make<IfStmt>(s_.pos);
    if (prev == nullptr) {
      first = s;
    } else {
      prev->else_ = s;
    }
    prev = s;
    header(Token::If, &s->init, &s->cond, nullptr);
    s->then = blockStmt("if clause");

    if (!got(Token::Else)) break;
    if (s_.tok == Token::If) {
      links++;
      uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
      if (++depth_ > kMaxDepth || stack_base_ - here > stack_budget_) [[unlikely]] tooDeep();
      continue;
    }
    if (s_.tok == Token::Lbrace) {
      s->else_ = blockStmt("");
    } else {
      syntaxError("else must be followed by if or statement block");
      advance(Bits({Token::Name, Token::Rbrace}));
    }
    break;
  }
  depth_ -= links;
  // Every link of the chain ends where the chain ends.
  for (IfStmt* t = first; t != nullptr; t = As<IfStmt>(t->else_)) finish(t);
  return first;
}

SwitchStmt* Parser::switchStmt() {
  SwitchStmt* s = make<SwitchStmt>(s_.pos);

  header(Token::Switch, &s->init, &s->tag, nullptr);
  s->body = clauseBlock<CaseClause>([this] { return caseClause(); }, "missing { after switch clause",
                                    &s->rbrace);
  return finish(s);
}

SelectStmt* Parser::selectStmt() {
  SelectStmt* s = make<SelectStmt>(s_.pos);

  want(Token::Select);
  s->body = clauseBlock<CommClause>([this] { return commClause(); }, "missing { after select clause",
                                    &s->rbrace);
  return finish(s);
}

// The body of a switch or select after its header, `{ clause* }`, each
// clause read by read_clause; *rbrace gets the position of the closing brace.
template <class Clause, class ReadClause>
List<Clause> Parser::clauseBlock(ReadClause read_clause, std::string_view missing_lbrace, Pos* rbrace) {
  if (!got(Token::Lbrace)) {
    syntaxError(missing_lbrace);
    advance(Bits({Token::Case, Token::Default, Token::Rbrace}));
  }
  size_t m = mark();
  while (s_.tok != Token::EOF_ && s_.tok != Token::Rbrace) push(read_clause());
  List<Clause> body = take<Clause>(m);
  *rbrace = s_.pos;
  want(Token::Rbrace);
  return body;
}

CaseClause* Parser::caseClause() {
  return clause<CaseClause>([this](CaseClause* c) { c->cases = exprList(); });
}

CommClause* Parser::commClause() {
  return clause<CommClause>([this](CommClause* c) {
    c->comm = simpleStmt(nullptr, Token::EOF_);
    // The syntax restricts the possible simple statements here to:
    //
    //     lhs <- x (send statement)
    //     <-x
    //     lhs = <-x
    //     lhs := <-x
    //
    // All these (and more) are recognized by simpleStmt and invalid syntax
    // trees are flagged later, during type checking.
  });
}

// A case or comm clause: `case` and what read_case reads into the clause, or
// `default`; then the colon and the clause's statements.
template <class Clause, class ReadCase>
Clause* Parser::clause(ReadCase read_case) {
  Clause* c = make<Clause>(s_.pos);

  switch (s_.tok) {
    case Token::Case:
      next();
      read_case(c);
      break;
    case Token::Default:
      next();
      break;
    default:
      syntaxError("expected case or default or }");
      advance(Bits({Token::Colon, Token::Case, Token::Default, Token::Rbrace}));
      break;
  }

  c->colon = s_.pos;
  want(Token::Colon);
  c->body = stmtList();
  return finish(c);
}

// stmtOrNull parses a statement if one is present, or else returns null.
//
//	Statement =
//		Declaration | LabeledStmt | SimpleStmt |
//		GoStmt | ReturnStmt | BreakStmt | ContinueStmt | GotoStmt |
//		FallthroughStmt | Block | IfStmt | SwitchStmt | SelectStmt | ForStmt |
//		DeferStmt .
Stmt* Parser::stmtOrNull() {
  Nest nest(this);

  // Most statements (assignments) start with an identifier; look for it
  // first before doing anything more expensive.
  if (s_.tok == Token::Name) {
    Expr* lhs = exprList();
    if (auto* label = As<Name>(lhs); label != nullptr && s_.tok == Token::Colon) {
      return labeledStmtOrNull(label);
    }
    return simpleStmt(lhs, Token::EOF_);
  }

  switch (s_.tok) {
    case Token::Var:
    case Token::Const:
    case Token::Type:
      return declStmt();

    case Token::Lbrace:
      return blockStmt("");

    case Token::Operator:
    case Token::Star:
      switch (s_.op) {
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::And:
        case Op::Xor:
        case Op::Not:
          return simpleStmt(nullptr, Token::EOF_);  // unary operators
        default:
          break;
      }
      break;

    case Token::Literal:
    case Token::Func:
    case Token::Lparen:  // operands
    case Token::Lbrack:
    case Token::Struct:
    case Token::Map:
    case Token::Chan:
    case Token::Interface:  // composite types
    case Token::Arrow:      // receive operator
      return simpleStmt(nullptr, Token::EOF_);

    case Token::For:
      return forStmt();
    case Token::Switch:
      return switchStmt();
    case Token::Select:
      return selectStmt();
    case Token::If:
      return ifStmt();

    case Token::Fallthrough: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      next();
      s->tok = Token::Fallthrough;
      return finish(s);
    }

    case Token::Break:
    case Token::Continue: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      s->tok = s_.tok;
      next();
      if (s_.tok == Token::Name) s->label = name();
      return finish(s);
    }

    case Token::Go:
    case Token::Defer:
      return callStmt();

    case Token::Goto: {
      BranchStmt* s = make<BranchStmt>(s_.pos);
      s->tok = Token::Goto;
      next();
      s->label = name();
      return finish(s);
    }

    case Token::Return: {
      ReturnStmt* s = make<ReturnStmt>(s_.pos);
      next();
      if (s_.tok != Token::Semi && s_.tok != Token::Rbrace) s->results = exprList();
      return finish(s);
    }

    case Token::Semi: {
      // An explicit ";" is the empty statement's text; an automatic one
      // (newline, EOF) gives it no extent.
      if (s_.lit != "semicolon") return zero<EmptyStmt>(s_.pos);
      EmptyStmt* s = make<EmptyStmt>(s_.pos);
      s->end = s_.end;
      prev_end_ = s_.end;  // the ";" is consumed as this statement's text
      return s;
    }

    default:
      break;
  }

  return nullptr;
}

// StatementList = { Statement ";" } .
List<Stmt> Parser::stmtList() {
  size_t m = mark();
  while (s_.tok != Token::EOF_ && s_.tok != Token::Rbrace && s_.tok != Token::Case &&
         s_.tok != Token::Default) {
    Stmt* s = stmtOrNull();
    if (s == nullptr) break;
    push(s);
    // ";" is optional before "}"
    if (!got(Token::Semi) && s_.tok != Token::Rbrace) {
      syntaxError("at end of statement");
      advance(Bits({Token::Semi, Token::Rbrace, Token::Case, Token::Default}));
      got(Token::Semi);  // avoid spurious empty statement
    }
  }
  return take<Stmt>(m);
}

}  // namespace gordian::syntax::parser_internal
