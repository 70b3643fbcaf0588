// This file implements the parser's package files and declarations (Go
// specification "Source file organization", "Declarations and scope"): the
// package clause and the top-level declaration loop, import, const, type and
// var declarations, alone or grouped, and function and method declarations
// with their bodies. See parser.cc for the parser as a whole.
#include "gordian/syntax/branches.h"
#include "gordian/syntax/parser_internal.h"

namespace gordian::syntax::parser_internal {
namespace {

// isTypeElem reports whether x is a (possibly parenthesized) type element
// expression. The result is false if x could be a type element OR an ordinary
// (value) expression.
bool isTypeElem(Expr* x) {
  switch (x->kind) {
    case NodeKind::ArrayType:
    case NodeKind::StructType:
    case NodeKind::FuncType:
    case NodeKind::InterfaceType:
    case NodeKind::SliceType:
    case NodeKind::MapType:
    case NodeKind::ChanType:
      return true;
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      return isTypeElem(op->x) || (op->y != nullptr && isTypeElem(op->y)) ||
             op->op == Op::Tilde;
    }
    case NodeKind::ParenExpr:
      return isTypeElem(static_cast<ParenExpr*>(x)->x);
    default:
      return false;
  }
}

bool isEmptyFuncDecl(Decl* d) {
  auto* f = As<FuncDecl>(d);
  return f != nullptr && f->body == nullptr;
}

}  // namespace

// ----------------------------------------------------------------------------
// Package files

// SourceFile = PackageClause ";" { ImportDecl ";" } { TopLevelDecl ";" } .
File* Parser::file() {
  File* f = make<File>(s_.pos, src_.base());
  f->source = &src_;
  f->end = src_.base() + src_.size();

  // PackageClause
  if (!got(Token::Package)) {
    syntaxError("package statement must be first");
    f->pkg_name = fakeName();
    drain();
    f->eof = s_.pos;
    return f;
  }
  f->pkg_name = name();
  want(Token::Semi);

  // don't bother continuing if package clause has errors
  if (error_count_ > 0) {
    drain();
    f->eof = s_.pos;
    return f;
  }

  // Accept import declarations anywhere for error tolerance, but complain.
  // { ( ImportDecl | TopLevelDecl ) ";" }
  const TokenSet follow =
      Bits({Token::Import, Token::Const, Token::Type, Token::Var, Token::Func});
  size_t m = mark();
  Token prev = Token::Import;
  while (s_.tok != Token::EOF_) {
    if (s_.tok == Token::Import && prev != Token::Import) {
      syntaxError("imports must appear before other declarations");
    }
    prev = s_.tok;

    Pos kw = s_.pos;
    switch (s_.tok) {
      case Token::Import:
      case Token::Const:
      case Token::Type:
      case Token::Var: {
        SpecParser spec = specParser(s_.tok);
        next();
        appendGroup(kw, spec);
        break;
      }
      case Token::Func:
        next();
        if (FuncDecl* d = funcDeclOrNull(kw)) push(d);
        break;
      default:
        if (s_.tok == Token::Lbrace && scratch_.size() > m &&
            isEmptyFuncDecl(static_cast<Decl*>(scratch_.back()))) {
          // opening { of function declaration on next line
          syntaxError("unexpected semicolon or newline before {");
        } else {
          syntaxError("non-declaration statement outside function body");
        }
        advance(follow);
        continue;
    }

    if (s_.tok != Token::EOF_ && !got(Token::Semi)) {
      syntaxError("after top level declaration");
      advance(follow);
    }
  }
  // s_.tok == EOF
  f->decls = take<Decl>(m);
  f->eof = s_.pos;
  return f;
}

// ----------------------------------------------------------------------------
// Declarations

Parser::SpecParser Parser::specParser(Token keyword) {
  switch (keyword) {
    case Token::Import: return &Parser::importDecl;
    case Token::Const: return &Parser::constDecl;
    case Token::Type: return &Parser::typeDecl;
    default: return &Parser::varDecl;  // Token::Var
  }
}

// appendGroup(f) = f | "(" { f ";" } ")" . // ";" is optional before ")"
// The declarations are pushed on the scratch stack. keyword is the position
// of the declaration keyword: the extent of an ungrouped declaration starts
// there.
void Parser::appendGroup(Pos keyword, SpecParser f) {
  if (s_.tok == Token::Lparen) {
    Group* g = arena_->New<Group>();
    g->lparen = s_.pos;
    next();
    g->rparen = list("grouped declaration", Token::Semi, Token::Rparen, [&] {
      if (Decl* x = (this->*f)(g)) push(x);
      return false;
    });
  } else {
    if (Decl* x = (this->*f)(nullptr)) {
      x->begin = keyword;
      push(x);
    }
  }
}

// ImportSpec = [ "." | PackageName ] ImportPath .
// ImportPath = string_lit .
Decl* Parser::importDecl(Group* group) {
  ImportDecl* d = make<ImportDecl>(s_.pos);
  d->group = group;

  switch (s_.tok) {
    case Token::Name:
      d->local_pkg_name = name();
      break;
    case Token::Dot:
      d->local_pkg_name = newName(s_.pos, s_.end, ".");
      next();
      break;
    default:
      break;
  }
  d->path = oliteral();
  if (d->path == nullptr) {
    syntaxError("missing import path");
    advance(Bits({Token::Semi, Token::Rparen}));
    return finish(d);
  }
  if (!d->path->bad && d->path->lit_kind != LitKind::String) {
    syntaxErrorAt(d->path->pos, "import path must be a string");
    d->path->bad = true;
  }
  return finish(d);
}

// ConstSpec = IdentifierList [ [ Type ] "=" ExpressionList ] .
Decl* Parser::constDecl(Group* group) {
  ConstDecl* d = make<ConstDecl>(s_.pos);
  d->group = group;

  d->names = nameList(name());
  if (s_.tok != Token::EOF_ && s_.tok != Token::Semi && s_.tok != Token::Rparen) {
    d->type = typeOrNull();
    if (gotAssign()) d->values = exprList();
  }
  return finish(d);
}

// TypeSpec = identifier [ TypeParams ] [ "=" ] Type .
Decl* Parser::typeDecl(Group* group) {
  TypeDecl* d = make<TypeDecl>(s_.pos);
  d->group = group;

  d->name = name();
  if (s_.tok == Token::Lbrack) {
    // d.name "[" ...
    // array/slice type or type parameter list
    Pos pos = s_.pos;
    next();
    switch (s_.tok) {
      case Token::Name: {
        // We may have an array type or a type parameter list. In either case
        // we expect an expression x (which may just be a name, or a more
        // complex expression) which we can analyze further.
        //
        // A type parameter list may have a type bound starting with a "[" as
        // in: P []E. In that case, simply parsing an expression would lead to
        // an error: P[] is invalid. But since index or slice expressions are
        // never constant and thus invalid array length expressions, if the
        // name is followed by "[" it must be the start of an array or slice
        // constraint. Only if we don't see a "[" do we need to parse a full
        // expression. Notably, name <- x is not a concern because name <- x
        // is a statement and not an expression.
        Expr* x = name();
        if (s_.tok != Token::Lbrack) {
          // To parse the expression starting with name, expand the call
          // sequence we would get by passing in name to expr, and pass in
          // name to pexpr.
          xnest_++;
          x = binaryExpr(pexpr(x), 0);
          xnest_--;
        }
        // Analyze expression x. If we can split x into a type parameter name,
        // possibly followed by a type parameter type, we consider this the
        // start of a type parameter list, with some caveats: a single name
        // followed by "]" tilts the decision towards an array declaration; a
        // type parameter type that could also be an ordinary expression but
        // which is followed by a comma tilts the decision towards a type
        // parameter list.
        auto [pname, ptype] = extractName(x, s_.tok == Token::Comma);
        if (pname != nullptr && (ptype != nullptr || s_.tok != Token::Rbrack)) {
          // d.name "[" pname ...
          // d.name "[" pname ptype ...
          // d.name "[" pname ptype "," ...
          d->tparams = paramList(pname, ptype, Token::Rbrack, true, false);  // ptype may be null
          d->alias = gotAssign();
          d->type = typeOrNull();
        } else {
          // d.name "[" pname "]" ...
          // d.name "[" x ...
          d->type = arrayType(pos, x);
        }
        break;
      }
      case Token::Rbrack:
        // d.name "[" "]" ...
        next();
        d->type = sliceType(pos);
        break;
      default:
        // d.name "[" ...
        d->type = arrayType(pos, nullptr);
        break;
    }
  } else {
    d->alias = gotAssign();
    d->type = typeOrNull();
  }

  if (d->type == nullptr) {
    d->type = badExpr();
    syntaxError("in type declaration");
    advance(Bits({Token::Semi, Token::Rparen}));
  }
  return finish(d);
}

// extractName splits the expression x into (name, expr) if syntactically x
// can be written as name expr. The split only happens if expr is a type
// element (per the isTypeElem predicate) or if force is set. If x is just a
// name, the result is (name, null). If the split succeeds, the result is
// (name, expr). Otherwise the result is (null, x).
//
//	x           force    name    expr
//	------------------------------------
//	P*[]int     T/F      P       *[]int
//	P*E         T        P       *E
//	P*E         F        null    P*E
//	P([]int)    T/F      P       ([]int)
//	P(E)        T        P       (E)
//	P(E)        F        null    P(E)
//	P*E|F|~G    T/F      P       *E|F|~G
//	P*E|F|G     T        P       *E|F|G
//	P*E|F|G     F        null    P*E|F|G
std::pair<Name*, Expr*> Parser::extractName(Expr* x, bool force) {
  switch (x->kind) {
    case NodeKind::Name:
      return {static_cast<Name*>(x), nullptr};
    case NodeKind::Operation: {
      auto* op = static_cast<Operation*>(x);
      if (op->y == nullptr) break;  // unary expr
      if (op->op == Op::Mul) {
        if (auto* name = As<Name>(op->x); name != nullptr && (force || isTypeElem(op->y))) {
          // x = name *x.y
          Operation* t = arena_->New<Operation>(*op);
          t->x = op->y;
          t->y = nullptr;  // change op into unary *op.y
          t->begin = op->pos;
          return {name, t};
        }
      } else if (op->op == Op::Or) {
        auto [name, lhs] = extractName(op->x, force || isTypeElem(op->y));
        if (name != nullptr && lhs != nullptr) {
          // x = name lhs|x.y
          Operation* t = arena_->New<Operation>(*op);
          t->x = lhs;
          t->begin = lhs->begin;
          return {name, t};
        }
      }
      break;
    }
    case NodeKind::CallExpr: {
      auto* call = static_cast<CallExpr*>(x);
      if (auto* name = As<Name>(call->fun)) {
        if (call->args.size() == 1 && !call->has_dots && (force || isTypeElem(call->args[0]))) {
          // x = name (x.args[0]); the parentheses are kept, as everywhere.
          ParenExpr* px = make<ParenExpr>(call->pos);
          px->x = call->args[0];
          px->end = call->end;
          return {name, px};
        }
      }
      break;
    }
    default:
      break;
  }
  return {nullptr, x};
}

// VarSpec = IdentifierList ( Type [ "=" ExpressionList ] | "=" ExpressionList ) .
Decl* Parser::varDecl(Group* group) {
  VarDecl* d = make<VarDecl>(s_.pos);
  d->group = group;

  d->names = nameList(name());
  if (gotAssign()) {
    d->values = exprList();
  } else {
    d->type = type_();
    if (gotAssign()) d->values = exprList();
  }
  return finish(d);
}

// FunctionDecl = "func" FunctionName [ TypeParams ] ( Function | Signature ) .
// FunctionName = identifier .
// Function     = Signature FunctionBody .
// MethodDecl   = "func" Receiver MethodName ( Function | Signature ) .
// Receiver     = Parameters .
// "func" has been consumed; kw is its position.
FuncDecl* Parser::funcDeclOrNull(Pos kw) {
  FuncDecl* f = make<FuncDecl>(kw);

  std::string_view context;
  if (s_.tok == Token::Lparen) {
    next();
    context = "method";
    List<Field> rcvr = paramList(nullptr, nullptr, Token::Rparen, false, false);
    switch (rcvr.size()) {
      case 0:
        error("method has no receiver");
        break;
      default:
        error("method has multiple receivers");
        [[fallthrough]];
      case 1:
        f->recv = rcvr[0];
        break;
    }
  }

  if (s_.tok == Token::Name) {
    f->name = name();
    f->type = funcType(context, s_.pos, &f->tparams);
  } else {
    f->name = fakeName();
    f->type = zero<FuncType>(s_.pos);
    syntaxError(context.empty() ? "expected name or (" : "expected name");
    advance(Bits({Token::Lbrace, Token::Semi}));
  }

  if (s_.tok == Token::Lbrace) f->body = funcBody();
  return finish(f);
}

BlockStmt* Parser::funcBody() {
  fnest_++;
  int errcnt = error_count_ - branch_errors_;
  BlockStmt* body = blockStmt("");
  fnest_--;

  // Don't check branches if there were syntax errors in the function as it
  // may lead to spurious errors or possibly crashes due to incomplete trees.
  // (Branch errors of nested function literals don't count.)
  if ((mode_ & kCheckBranches) != 0 && errcnt == error_count_ - branch_errors_) {
    CheckBranches(src_, body, [this](Pos pos, std::string msg) {
      int before = error_count_;
      errorAt(pos, std::move(msg));
      branch_errors_ += error_count_ - before;
    });
  }
  return body;
}

}  // namespace gordian::syntax::parser_internal
