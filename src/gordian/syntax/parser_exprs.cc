// This file implements the parser's expressions (Go specification
// "Expressions"): binary and unary operations, operands, primary
// expressions (selectors, index and slice expressions, type assertions,
// calls, composite literals), argument lists, and the common productions
// that build names and expression lists. See parser.cc for the parser as a
// whole.
#include "gordian/syntax/parser_internal.h"

namespace gordian::syntax::parser_internal {
namespace {

Expr* Unparen(Expr* x) {
  while (auto* p = As<ParenExpr>(x)) x = p->x;
  return x;
}

// isValue reports whether x syntactically must be a value (and not a type)
// expression.
bool isValue(Expr* x) {
  switch (x->kind) {
    case NodeKind::BasicLit:
    case NodeKind::CompositeLit:
    case NodeKind::FuncLit:
    case NodeKind::SliceExpr:
    case NodeKind::AssertExpr:
    case NodeKind::TypeSwitchGuard:
    case NodeKind::CallExpr:
      return true;
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      return op->op != Op::Mul || op->y != nullptr;  // *T may be a type
    }
    case NodeKind::ParenExpr:
      return isValue(static_cast<ParenExpr*>(x)->x);
    case NodeKind::IndexExpr: {
      auto* ix = static_cast<IndexExpr*>(x);
      return isValue(ix->x) || isValue(ix->index);
    }
    default:
      return false;
  }
}

}  // namespace

// ----------------------------------------------------------------------------
// Expressions

// Expression = UnaryExpr | Expression binary_op Expression .
Expr* Parser::binaryExpr(Expr* x, int prec) {
  if (x == nullptr) x = unaryExpr();
  while ((s_.tok == Token::Operator || s_.tok == Token::Star) && s_.prec > prec) {
    Operation* t = make<Operation>(s_.pos, x->begin);
    t->op = s_.op;
    int tprec = s_.prec;
    next();
    t->x = x;
    t->y = binaryExpr(nullptr, tprec);
    t->end = t->y->end;
    x = t;
  }
  return x;
}

// UnaryExpr = PrimaryExpr | unary_op UnaryExpr .
Expr* Parser::unaryExpr() {
  Nest nest(this);

  switch (s_.tok) {
    case Token::Operator:
    case Token::Star:
      switch (s_.op) {
        case Op::Mul:
        case Op::Add:
        case Op::Sub:
        case Op::Not:
        case Op::Xor:
        case Op::Tilde:
        case Op::And: {
          Operation* x = make<Operation>(s_.pos);
          x->op = s_.op;
          next();
          x->x = unaryExpr();
          return finish(x);
        }
        default:
          break;
      }
      break;

    case Token::Arrow: {
      // receive op (<-x) or receive-only channel (<-chan E)
      Pos pos = s_.pos;
      next();

      // If the next token is Chan we still don't know if it is a channel
      // (<-chan int) or a receive op (<-chan int(ch)). We only know once we
      // have found the end of the unaryExpr.
      Expr* x = unaryExpr();

      // There are two cases:
      //
      //   <-chan...  => <-x is a channel type
      //   <-x        => <-x is a receive operation
      //
      // In the first case, <- must be re-associated with the channel type
      // parsed already:
      //
      //   <-(chan E)   =>  (<-chan E)
      //   <-(chan<-E)  =>  (<-chan (<-E))
      if (Is<ChanType>(x)) return reassociateChan(pos, x);

      // x is not a channel type => we have a receive op
      Operation* o = make<Operation>(pos);
      o->op = Op::Recv;
      o->x = x;
      return finish(o);
    }

    default:
      break;
  }

  return pexpr(nullptr);
}

// x, the operand of a "<-" at pos, is a channel type: re-associate the <-
// with it (see unaryExpr).
Expr* Parser::reassociateChan(Pos pos, Expr* x) {
  // x is a channel type => re-associate <-
  ChanDir dir = ChanDir::Send;
  Expr* t = x;
  Pos arrow = pos;  // the <- that now belongs to t
  while (dir == ChanDir::Send) {
    auto* c = As<ChanType>(t);
    if (c == nullptr) break;
    dir = c->dir;
    if (dir == ChanDir::Recv) {
      // t is type <-chan E but <-<-chan E is not permitted
      // (report same error as for "type _ <-<-chan E")
      syntaxError("unexpected <-, expected chan");
      // already progressed, no need to advance
    }
    // The arrow of a send-only channel c moves to its element: find it
    // (it follows "chan", before the element's text).
    Pos next_arrow = kNoPos;
    if (dir == ChanDir::Send && c->elem != nullptr) {
      std::string_view all = src_.content();
      uint32_t i = src_.OffsetOf(c->elem->begin);
      uint32_t lo = src_.OffsetOf(c->begin);
      while (i > lo && (all[i - 1] == ' ' || all[i - 1] == '\t' || all[i - 1] == '\n' ||
                        all[i - 1] == '\r')) {
        i--;
      }
      if (i >= lo + 2 && all[i - 2] == '<' && all[i - 1] == '-') {
        next_arrow = src_.PosAt(i - 2);
      }
    }
    c->dir = ChanDir::Recv;
    if (arrow != kNoPos) {
      c->pos = arrow;
      c->begin = arrow;
    }
    arrow = next_arrow;
    t = c->elem;
  }
  if (dir == ChanDir::Send) {
    // channel dir is <- but channel element E is not a channel
    // (report same error as for "type _ <-chan<-E")
    syntaxErrorf("unexpected {}, expected chan", exprString(t));
    // already progressed, no need to advance
  }
  return x;
}

// callStmt parses call-like statements that can be preceded by 'defer' and 'go'.
CallStmt* Parser::callStmt() {
  CallStmt* s = make<CallStmt>(s_.pos);
  s->tok = s_.tok;  // Defer or Go
  next();

  Expr* x = pexpr(nullptr);
  if (Expr* t = Unparen(x); t != x) {
    errorAtf(x->pos, "expression in {} must not be parenthesized", TokenString(s->tok));
    // already progressed, no need to advance
    x = t;
  }
  s->call = x;
  return finish(s);
}

// Operand     = Literal | OperandName | MethodExpr | "(" Expression ")" .
// Literal     = BasicLit | CompositeLit | FunctionLit .
// BasicLit    = int_lit | float_lit | imaginary_lit | rune_lit | string_lit .
// OperandName = identifier | QualifiedIdent.
Expr* Parser::operand() {
  switch (s_.tok) {
    case Token::Name:
      return name();

    case Token::Literal:
      return oliteral();

    case Token::Lparen: {
      ParenExpr* px = make<ParenExpr>(s_.pos);
      next();
      xnest_++;
      px->x = expr();
      xnest_--;
      want(Token::Rparen);
      return finish(px);
    }

    case Token::Func: {
      Pos pos = s_.pos;
      next();
      FuncType* ftyp = funcType("function type", pos, nullptr);
      if (s_.tok == Token::Lbrace) {
        xnest_++;
        FuncLit* f = make<FuncLit>(pos);
        f->type = ftyp;
        f->body = funcBody();
        xnest_--;
        return finish(f);
      }
      return ftyp;
    }

    case Token::Lbrack:
    case Token::Chan:
    case Token::Map:
    case Token::Struct:
    case Token::Interface:
      return type_();  // othertype

    default: {
      Expr* x = badExpr();
      syntaxError("expected expression");
      advance(Bits({Token::Rparen, Token::Rbrack, Token::Rbrace}));
      return x;
    }
  }

  // Syntactically, composite literals are operands. Because a complit type
  // may be a qualified identifier which is handled by pexpr (together with
  // selector expressions), complits are parsed there as well (operand is only
  // called from pexpr).
}

// pexpr parses a PrimaryExpr.
//
//	PrimaryExpr =
//		Operand |
//		Conversion |
//		PrimaryExpr Selector |
//		PrimaryExpr Index |
//		PrimaryExpr Slice |
//		PrimaryExpr TypeAssertion |
//		PrimaryExpr Arguments .
//
//	Selector       = "." identifier .
//	Index          = "[" Expression "]" .
//	Slice          = "[" ( [ Expression ] ":" [ Expression ] ) |
//	                     ( [ Expression ] ":" Expression ":" Expression )
//	                 "]" .
//	TypeAssertion  = "." "(" Type ")" .
//	Arguments      = "(" [ ( ExpressionList | Type [ "," ExpressionList ] ) [ "..." ] [ "," ] ] ")" .
Expr* Parser::pexpr(Expr* x) {
  if (x == nullptr) x = operand();

  for (;;) {
    Pos pos = s_.pos;
    switch (s_.tok) {
      case Token::Dot: {
        next();
        switch (s_.tok) {
          case Token::Name: {
            // pexpr '.' sym
            SelectorExpr* t = make<SelectorExpr>(pos, x->begin);
            t->x = x;
            t->sel = name();
            x = finish(t);
            break;
          }
          case Token::Lparen:
            next();
            if (got(Token::Type)) {
              TypeSwitchGuard* t = make<TypeSwitchGuard>(pos, x->begin);
              // t->lhs is filled in by simpleStmt
              t->x = x;
              x = t;
            } else {
              AssertExpr* t = make<AssertExpr>(pos, x->begin);
              t->x = x;
              t->type = type_();
              x = t;
            }
            want(Token::Rparen);
            finish(x);
            break;
          default:
            syntaxError("expected name or (");
            advance(Bits({Token::Semi, Token::Rparen}));
            break;
        }
        break;
      }

      case Token::Lbrack: {
        next();

        Expr* i = nullptr;
        if (s_.tok != Token::Colon) {
          bool comma = false;
          if (s_.tok == Token::Rbrack) {
            // invalid empty instance, slice or index expression; accept but complain
            syntaxError("expected operand");
            i = badExpr();
          } else {
            i = typeList(false, &comma);
          }
          if (comma || s_.tok == Token::Rbrack) {
            want(Token::Rbrack);
            // x[], x[i,] or x[i, j, ...]
            IndexExpr* t = make<IndexExpr>(pos, x->begin);
            t->x = x;
            t->index = i;
            x = finish(t);
            break;
          }
        }

        // x[i:...
        // For better error message, don't simply use want(Colon) here (go.dev/issue/47704).
        if (!got(Token::Colon)) {
          syntaxError("expected comma, : or ]");
          advance(Bits({Token::Comma, Token::Colon, Token::Rbrack}));
        }
        xnest_++;
        SliceExpr* t = make<SliceExpr>(pos, x->begin);
        t->x = x;
        t->index[0] = i;
        if (s_.tok != Token::Colon && s_.tok != Token::Rbrack) {
          // x[i:j...
          t->index[1] = expr();
        }
        if (s_.tok == Token::Colon) {
          t->full = true;
          // x[i:j:...]
          if (t->index[1] == nullptr) {
            error("middle index required in 3-index slice");
            t->index[1] = badExpr();
          }
          next();
          if (s_.tok != Token::Rbrack) {
            // x[i:j:k...
            t->index[2] = expr();
          } else {
            error("final index required in 3-index slice");
            t->index[2] = badExpr();
          }
        }
        xnest_--;
        want(Token::Rbrack);
        x = finish(t);
        break;
      }

      case Token::Lparen: {
        CallExpr* t = make<CallExpr>(pos, x->begin);
        next();
        t->fun = x;
        t->args = argList(&t->has_dots, &t->rparen);
        x = finish(t);
        break;
      }

      case Token::Lbrace: {
        // operand may have returned a parenthesized complit type; accept it
        // but complain if we have a complit
        Expr* t = Unparen(x);
        // determine if '{' belongs to a composite literal or a block statement
        bool complit_ok = false;
        switch (t->kind) {
          case NodeKind::Name:
          case NodeKind::SelectorExpr:
            // x is possibly a composite literal type
            complit_ok = xnest_ >= 0;
            break;
          case NodeKind::IndexExpr:
            // x is possibly a composite literal type
            complit_ok = xnest_ >= 0 && !isValue(t);
            break;
          case NodeKind::ArrayType:
          case NodeKind::SliceType:
          case NodeKind::StructType:
          case NodeKind::MapType:
            // x is a comptype
            complit_ok = true;
            break;
          default:
            break;
        }
        if (!complit_ok) return x;
        if (t != x) {
          syntaxError("cannot parenthesize type in composite literal");
          // already progressed, no need to advance
        }
        CompositeLit* n = complitexpr();
        n->type = x;
        n->begin = x->begin;
        x = n;
        break;
      }

      default:
        return x;
    }
  }
}

// Element = Expression | LiteralValue .
Expr* Parser::bare_complitexpr() {
  if (s_.tok == Token::Lbrace) {
    // '{' start_complit braced_keyval_list '}'
    return complitexpr();
  }
  return expr();
}

// LiteralValue = "{" [ ElementList [ "," ] ] "}" .
CompositeLit* Parser::complitexpr() {
  Nest nest(this);
  CompositeLit* x = make<CompositeLit>(s_.pos);

  xnest_++;
  want(Token::Lbrace);
  size_t m = mark();
  x->rbrace = list("composite literal", Token::Comma, Token::Rbrace, [&] {
    // value
    Expr* e = bare_complitexpr();
    if (s_.tok == Token::Colon) {
      // key ':' value
      KeyValueExpr* l = make<KeyValueExpr>(s_.pos, e->begin);
      next();
      l->key = e;
      l->value = bare_complitexpr();
      e = finish(l);
      x->nkeys++;
    }
    push(e);
    return false;
  });
  x->elems = take<Expr>(m);
  xnest_--;
  return finish(x);
}

// argList parses a possibly empty, comma-separated list of arguments,
// optionally followed by a comma (if not empty), and closed by ")".
// The last argument may be followed by "...".
//
// argList = [ arg { "," arg } [ "..." ] [ "," ] ] ")" .
List<Expr> Parser::argList(bool* hasDots, Pos* rparen) {
  xnest_++;
  size_t m = mark();
  *rparen = list("argument list", Token::Comma, Token::Rparen, [&] {
    push(expr());
    *hasDots = got(Token::DotDotDot);
    return *hasDots;
  });
  xnest_--;
  return take<Expr>(m);
}

// ----------------------------------------------------------------------------
// Common productions

Name* Parser::name() {
  if (s_.tok == Token::Name) {
    Name* n = newName(s_.pos, s_.end, s_.lit);
    next();
    return n;
  }
  Name* n = fakeName();
  syntaxError("expected name");
  advance(0);
  return n;
}

// IdentifierList = identifier { "," identifier } .
// The first name must be provided.
List<Name> Parser::nameList(Name* first) {
  if (s_.tok != Token::Comma) {
    Name** p = static_cast<Name**>(arena_->Allocate(sizeof(Name*), alignof(Name*)));
    p[0] = first;
    return {p, 1};
  }
  size_t m = mark();
  push(first);
  while (got(Token::Comma)) push(name());
  return take<Name>(m);
}

// The first name may be provided, or null.
Expr* Parser::qualifiedName(Name* name) {
  Expr* x;
  if (name != nullptr) {
    x = name;
  } else if (s_.tok == Token::Name) {
    x = this->name();
  } else {
    x = fakeName();
    syntaxError("expected name");
    advance(Bits({Token::Dot, Token::Semi, Token::Rbrace}));
  }

  if (s_.tok == Token::Dot) {
    SelectorExpr* s = make<SelectorExpr>(s_.pos, x->begin);
    next();
    s->x = x;
    s->sel = this->name();
    x = finish(s);
  }

  if (s_.tok == Token::Lbrack) x = typeInstance(x);
  return x;
}

// makeList turns the expressions on the scratch stack above m into a
// ListExpr (at least two elements expected).
Expr* Parser::makeList(size_t m) {
  Expr* first = static_cast<Expr*>(scratch_[m]);
  Expr* last = static_cast<Expr*>(scratch_.back());
  ListExpr* l = make<ListExpr>(first->pos, first->begin);
  l->end = std::max(last->end, first->begin);
  l->elems = take<Expr>(m);
  return l;
}

// ExpressionList = Expression { "," Expression } .
Expr* Parser::exprList() {
  Expr* x = expr();
  if (s_.tok == Token::Comma) {
    size_t m = mark();
    push(x);
    while (got(Token::Comma)) push(expr());
    x = makeList(m);
  }
  return x;
}

// typeList parses a non-empty, comma-separated list of types, optionally
// followed by a comma. If strict is set to false, the first element may also
// be a (non-type) expression. If there is more than one argument, the result
// is a ListExpr. *comma tells whether there was a (separating or trailing)
// comma.
//
// typeList = arg { "," arg } [ "," ] .
Expr* Parser::typeList(bool strict, bool* comma) {
  *comma = false;
  xnest_++;
  Expr* x = strict ? type_() : expr();
  if (got(Token::Comma)) {
    *comma = true;
    if (Expr* t = typeOrNull()) {
      size_t m = mark();
      push(x);
      push(t);
      while (got(Token::Comma)) {
        if ((t = typeOrNull()) == nullptr) break;
        push(t);
      }
      x = makeList(m);
    }
  }
  xnest_--;
  return x;
}

}  // namespace gordian::syntax::parser_internal
