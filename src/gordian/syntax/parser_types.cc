// This file implements the parser's types (Go specification "Types"):
// type names and instantiations, array, slice, map, channel, pointer,
// function, struct and interface types, fields, methods, embedded elements
// and parameter lists. See parser.cc for the parser as a whole.
#include "gordian/syntax/parser_internal.h"

namespace gordian::syntax::parser_internal {
// ----------------------------------------------------------------------------
// Types

Expr* Parser::type_() {
  Expr* typ = typeOrNull();
  if (typ == nullptr) {
    typ = badExpr();
    syntaxError("expected type");
    advance(Bits({Token::Comma, Token::Colon, Token::Semi, Token::Rparen, Token::Rbrack,
                  Token::Rbrace}));
  }
  return typ;
}

Operation* Parser::newIndirect(Pos pos, Expr* typ) {
  Operation* o = make<Operation>(pos);
  o->op = Op::Mul;
  o->x = typ;
  return finish(o);
}

// typeOrNull is like type_ but it returns null if there was no type instead
// of reporting an error.
//
//	Type     = TypeName | TypeLit | "(" Type ")" .
//	TypeName = identifier | QualifiedIdent .
//	TypeLit  = ArrayType | StructType | PointerType | FunctionType | InterfaceType |
//		      SliceType | MapType | Channel_Type .
Expr* Parser::typeOrNull() {
  Nest nest(this);
  Pos pos = s_.pos;
  switch (s_.tok) {
    case Token::Star:
      // ptrtype
      next();
      return newIndirect(pos, type_());

    case Token::Arrow: {
      // recvchantype
      next();
      want(Token::Chan);
      ChanType* t = make<ChanType>(pos);
      t->dir = ChanDir::Recv;
      t->elem = chanElem();
      return finish(t);
    }

    case Token::Func: {
      // fntype
      next();
      return funcType("function type", pos, nullptr);
    }

    case Token::Lbrack:
      // '[' oexpr ']' ntype
      // '[' DotDotDot ']' ntype
      next();
      if (got(Token::Rbrack)) return sliceType(pos);
      return arrayType(pos, nullptr);

    case Token::Chan: {
      // Chan non_recvchantype
      // Chan Comm ntype
      next();
      ChanType* t = make<ChanType>(pos);
      if (got(Token::Arrow)) t->dir = ChanDir::Send;
      t->elem = chanElem();
      return finish(t);
    }

    case Token::Map: {
      // Map '[' ntype ']' ntype
      next();
      want(Token::Lbrack);
      MapType* t = make<MapType>(pos);
      t->key = type_();
      want(Token::Rbrack);
      t->value = type_();
      return finish(t);
    }

    case Token::Struct:
      return structType();

    case Token::Interface:
      return interfaceType();

    case Token::Name:
      return qualifiedName(nullptr);

    case Token::Lparen: {
      next();
      ParenExpr* px = make<ParenExpr>(pos);
      px->x = type_();
      want(Token::Rparen);
      return finish(px);
    }

    default:
      return nullptr;
  }
}

Expr* Parser::typeInstance(Expr* typ) {
  IndexExpr* x = make<IndexExpr>(s_.pos, typ->begin);
  want(Token::Lbrack);
  x->x = typ;
  if (s_.tok == Token::Rbrack) {
    syntaxError("expected type argument list");
    x->index = badExpr();
  } else {
    bool comma;
    x->index = typeList(true, &comma);
  }
  want(Token::Rbrack);
  return finish(x);
}

// If context != "", type parameters are not permitted. begin is the start of
// the type's text (the "func" keyword of a function type). tparams is not
// null for a function or method declaration: it receives the type
// parameters, and the type's text then starts at the parameters' "(".
FuncType* Parser::funcType(std::string_view context, Pos begin, List<Field>* tparams) {
  FuncType* typ = make<FuncType>(begin);

  if (s_.tok == Token::Lbrack) {
    Pos lbrack = s_.pos;
    next();
    if (!context.empty()) {
      // accept but complain
      syntaxErrorAtf(lbrack, "{} must have no type parameters", context);
    }
    if (s_.tok == Token::Rbrack) {
      syntaxError("empty type parameter list");
      next();
    } else {
      List<Field> l = paramList(nullptr, nullptr, Token::Rbrack, true, false);
      if (tparams != nullptr) *tparams = l;
    }
  }

  // In a declaration (tparams != null), the type's text starts at "(".
  if (tparams != nullptr) typ->pos = typ->begin = s_.pos;
  want(Token::Lparen);
  typ->params = paramList(nullptr, nullptr, Token::Rparen, false, true);
  typ->results = funcResult();
  return finish(typ);
}

// "[" has already been consumed, and pos is its position.
// If len != null it is the already consumed array length.
Expr* Parser::arrayType(Pos pos, Expr* len) {
  if (len == nullptr && !got(Token::DotDotDot)) {
    xnest_++;
    len = expr();
    xnest_--;
  }
  if (s_.tok == Token::Comma) {
    // Trailing commas are accepted in type parameter lists but not in array
    // type declarations. Accept for better error handling but complain.
    syntaxError("unexpected comma; expected ]");
    next();
  }
  want(Token::Rbrack);
  ArrayType* t = make<ArrayType>(pos);
  t->len = len;
  t->elem = type_();
  return finish(t);
}

// "[" and "]" have already been consumed, and pos is the position of "[".
Expr* Parser::sliceType(Pos pos) {
  SliceType* t = make<SliceType>(pos);
  t->elem = type_();
  return finish(t);
}

Expr* Parser::chanElem() {
  Expr* typ = typeOrNull();
  if (typ == nullptr) {
    typ = badExpr();
    syntaxError("missing channel element type");
    // assume element type is simply absent - don't advance
  }
  return typ;
}

// StructType = "struct" "{" { FieldDecl ";" } "}" .
StructType* Parser::structType() {
  StructType* typ = make<StructType>(s_.pos);

  want(Token::Struct);
  want(Token::Lbrace);
  size_t m = mark();
  size_t tm = tags_.size();
  list("struct type", Token::Semi, Token::Rbrace, [&] {
    fieldDecl();
    return false;
  });
  typ->fields = take<Field>(m);
  bool any_tag = false;
  for (size_t i = tm; i < tags_.size(); i++) any_tag |= tags_[i] != nullptr;
  if (any_tag) {
    size_t n = tags_.size() - tm;
    auto** p = static_cast<BasicLit**>(arena_->Allocate(n * sizeof(BasicLit*), alignof(BasicLit*)));
    for (size_t i = 0; i < n; i++) p[i] = static_cast<BasicLit*>(tags_[tm + i]);
    typ->tags = {p, n};
  }
  tags_.resize(tm);
  return finish(typ);
}

// InterfaceType = "interface" "{" { ( MethodDecl | EmbeddedElem ) ";" } "}" .
InterfaceType* Parser::interfaceType() {
  InterfaceType* typ = make<InterfaceType>(s_.pos);

  want(Token::Interface);
  want(Token::Lbrace);
  size_t m = mark();
  list("interface type", Token::Semi, Token::Rbrace, [&] {
    Field* f = nullptr;
    if (s_.tok == Token::Name) f = methodDecl();
    if (f == nullptr || f->name == nullptr) f = embeddedElem(f);
    push(f);
    return false;
  });
  typ->methods = take<Field>(m);
  return finish(typ);
}

// Result = Parameters | Type .
List<Field> Parser::funcResult() {
  if (got(Token::Lparen)) {
    return paramList(nullptr, nullptr, Token::Rparen, false, false);
  }
  Pos pos = s_.pos;
  if (Expr* typ = typeOrNull()) {
    Field* f = make<Field>(pos, typ->begin);
    f->type = typ;
    f->end = typ->end;
    Field** p = static_cast<Field**>(arena_->Allocate(sizeof(Field*), alignof(Field*)));
    p[0] = f;
    return {p, 1};
  }
  return {};
}

// addField pushes a struct field and its tag (null for none) on the scratch
// stacks.
void Parser::addField(Pos pos, Pos begin, Name* name, Expr* typ, BasicLit* tag) {
  Field* f = make<Field>(pos, begin);
  f->name = name;
  f->type = typ;
  finish(f);
  push(f);
  tags_.push_back(tag);
}

// FieldDecl      = (IdentifierList Type | EmbeddedField) [ Tag ] .
// EmbeddedField  = [ "*" ] TypeName [ TypeArgs ] .
// Tag            = string_lit .
void Parser::fieldDecl() {
  Pos pos = s_.pos;
  switch (s_.tok) {
    case Token::Name: {
      Name* nm = name();
      if (s_.tok == Token::Dot || s_.tok == Token::Literal || s_.tok == Token::Semi ||
          s_.tok == Token::Rbrace) {
        // embedded type
        Expr* typ = qualifiedName(nm);
        BasicLit* tag = oliteral();
        addField(pos, pos, nullptr, typ, tag);
        break;
      }

      // name1, name2, ... Type [ tag ]
      List<Name> names = nameList(nm);
      Expr* typ;

      // Careful dance: We don't know if we have an embedded instantiated
      // type T[P1, P2, ...] or a field T of array/slice type [P]E or []E.
      if (names.size() == 1 && s_.tok == Token::Lbrack) {
        typ = arrayOrTArgs();
        if (auto* ix = As<IndexExpr>(typ)) {
          // embedded type T[P1, P2, ...]
          ix->x = nm;  // nm == names[0]
          ix->begin = nm->begin;
          BasicLit* tag = oliteral();
          addField(pos, pos, nullptr, typ, tag);
          break;
        }
      } else {
        // T P
        typ = type_();
      }

      BasicLit* tag = oliteral();
      // Fields declared together share typ and tag. The extent of each but
      // the last is just its name; the last one spans the type and tag.
      for (size_t i = 0; i < names.size(); i++) {
        Name* n = names[i];
        Field* f = make<Field>(n->pos, n->begin);
        f->name = n;
        f->type = typ;
        if (i + 1 < names.size()) {
          f->end = n->end;
        } else {
          finish(f);
        }
        push(f);
        tags_.push_back(tag);
      }
      break;
    }

    case Token::Star: {
      next();
      Expr* typ;
      if (s_.tok == Token::Lparen) {
        // *(T)
        syntaxError("cannot parenthesize embedded type");
        next();
        typ = qualifiedName(nullptr);
        got(Token::Rparen);  // no need to complain if missing
      } else {
        // *T
        typ = qualifiedName(nullptr);
      }
      BasicLit* tag = oliteral();
      Operation* ind = make<Operation>(pos);
      ind->op = Op::Mul;
      ind->x = typ;
      ind->end = typ->end;
      addField(pos, pos, nullptr, ind, tag);
      break;
    }

    case Token::Lparen: {
      syntaxError("cannot parenthesize embedded type");
      next();
      Expr* typ;
      if (s_.tok == Token::Star) {
        // (*T)
        Pos ppos = s_.pos;
        next();
        typ = newIndirect(ppos, qualifiedName(nullptr));
      } else {
        // (T)
        typ = qualifiedName(nullptr);
      }
      got(Token::Rparen);  // no need to complain if missing
      BasicLit* tag = oliteral();
      addField(pos, pos, nullptr, typ, tag);
      break;
    }

    default:
      syntaxError("expected field name or embedded type");
      advance(Bits({Token::Semi, Token::Rbrace}));
      break;
  }
}

Expr* Parser::arrayOrTArgs() {
  Pos pos = s_.pos;
  want(Token::Lbrack);
  if (got(Token::Rbrack)) return sliceType(pos);

  // x [n]E or x[n,], x[n1, n2], ...
  bool comma;
  Expr* n = typeList(false, &comma);
  want(Token::Rbrack);
  if (!comma) {
    if (Expr* elem = typeOrNull()) {
      // x [n]E
      ArrayType* t = make<ArrayType>(pos);
      t->len = n;
      t->elem = elem;
      return finish(t);
    }
  }

  // x[n,], x[n1, n2], ...
  IndexExpr* t = make<IndexExpr>(pos);
  // t->x will be filled in by caller
  t->index = n;
  return finish(t);
}

BasicLit* Parser::oliteral() {
  if (s_.tok == Token::Literal) {
    BasicLit* b = make<BasicLit>(s_.pos);
    b->end = s_.end;
    b->value = s_.lit;
    b->lit_kind = s_.kind;
    b->bad = s_.bad;
    next();
    return b;
  }
  return nullptr;
}

// MethodSpec        = MethodName Signature | InterfaceTypeName .
// MethodName        = identifier .
// InterfaceTypeName = TypeName .
Field* Parser::methodDecl() {
  Field* f = make<Field>(s_.pos);
  Name* nm = name();

  const std::string_view context = "interface method";

  switch (s_.tok) {
    case Token::Lparen:
      // method
      f->name = nm;
      f->type = funcType(context, s_.pos, nullptr);
      break;

    case Token::Lbrack: {
      // Careful dance: We don't know if we have a generic method m[T C](x T)
      // or an embedded instantiated type T[P1, P2] (we accept generic methods
      // for generality and robustness of parsing but complain with an error).
      Pos pos = s_.pos;
      next();

      // Empty type parameter or argument lists are not permitted.
      // Treat as if [] were absent.
      if (s_.tok == Token::Rbrack) {
        // name[]
        Pos rpos = s_.pos;
        next();
        if (s_.tok == Token::Lparen) {
          // name[](
          errorAt(rpos, "empty type parameter list");
          f->name = nm;
          f->type = funcType(context, s_.pos, nullptr);
        } else {
          errorAt(rpos, "empty type argument list");
          f->type = nm;
        }
        break;
      }

      // A type argument list looks like a parameter list with only types.
      // Parse a parameter list and decide afterwards.
      List<Field> l = paramList(nullptr, nullptr, Token::Rbrack, false, false);
      if (l.empty()) {
        // The type parameter list is not [] but we got nothing due to other
        // errors (reported by paramList). Treat as if [] were absent.
        if (s_.tok == Token::Lparen) {
          f->name = nm;
          f->type = funcType(context, s_.pos, nullptr);
        } else {
          f->type = nm;
        }
        break;
      }

      // l.size() > 0
      if (l[0]->name != nullptr) {
        // generic method
        f->name = nm;
        f->type = funcType(context, s_.pos, nullptr);
        errorAt(pos, "interface method must have no type parameters");
        break;
      }

      // embedded instantiated type
      IndexExpr* t = make<IndexExpr>(pos, nm->begin);
      t->x = nm;
      if (l.size() == 1) {
        t->index = l[0]->type;
      } else {
        // l.size() > 1
        size_t m = mark();
        for (Field* p : l) push(p->type);
        t->index = makeList(m);
      }
      f->type = finish(t);
      break;
    }

    default:
      // embedded type
      f->type = qualifiedName(nm);
      break;
  }
  return finish(f);
}

// EmbeddedElem = MethodSpec | EmbeddedTerm { "|" EmbeddedTerm } .
Field* Parser::embeddedElem(Field* f) {
  if (f == nullptr) {
    f = make<Field>(s_.pos);
    f->type = embeddedTerm();
  }

  while (gotOp(Op::Or)) {
    Operation* t = make<Operation>(s_.pos, f->type->begin);
    t->op = Op::Or;
    next();
    t->x = f->type;
    t->y = embeddedTerm();
    f->type = finish(t);
  }
  return finish(f);
}

// EmbeddedTerm = [ "~" ] Type .
Expr* Parser::embeddedTerm() {
  if (gotOp(Op::Tilde)) {
    Operation* t = make<Operation>(s_.pos);
    t->op = Op::Tilde;
    next();
    t->x = type_();
    return finish(t);
  }

  Expr* t = typeOrNull();
  if (t == nullptr) {
    t = badExpr();
    syntaxError("expected ~ term or type");
    advance(Bits({Token::Operator, Token::Semi, Token::Rparen, Token::Rbrack, Token::Rbrace}));
  }
  return t;
}

// ParameterDecl = [ IdentifierList ] [ "..." ] Type .
Field* Parser::paramDeclOrNull(Name* name, Token follow) {
  // type set notation is ok in type parameter lists
  bool typeSetsOk = follow == Token::Rbrack;

  Pos pos = s_.pos;
  if (name != nullptr) {
    pos = name->pos;
  } else if (typeSetsOk && gotOp(Op::Tilde)) {
    // "~" ...
    return embeddedElem(nullptr);
  }

  Field* f = make<Field>(pos);

  if (s_.tok == Token::Name || name != nullptr) {
    // name
    if (name == nullptr) name = this->name();

    if (s_.tok == Token::Lbrack) {
      // name "[" ...
      f->type = arrayOrTArgs();
      if (auto* typ = As<IndexExpr>(f->type)) {
        // name "[" ... "]"
        typ->x = name;
        typ->begin = name->begin;
      } else {
        // name "[" n "]" E
        f->name = name;
      }
      if (typeSetsOk && gotOp(Op::Or)) {
        // name "[" ... "]" "|" ...
        // name "[" n "]" E "|" ...
        f = embeddedElem(f);
      }
      return finish(f);
    }

    if (s_.tok == Token::Dot) {
      // name "." ...
      f->type = qualifiedName(name);
      if (typeSetsOk && gotOp(Op::Or)) {
        // name "." name "|" ...
        f = embeddedElem(f);
      }
      return finish(f);
    }

    if (typeSetsOk && gotOp(Op::Or)) {
      // name "|" ...
      f->type = name;
      return embeddedElem(f);
    }

    f->name = name;
  }

  if (s_.tok == Token::DotDotDot) {
    // [name] "..." ...
    DotsType* t = make<DotsType>(s_.pos);
    next();
    t->elem = typeOrNull();
    if (t->elem == nullptr) {
      f->type = badExpr();
      syntaxError("... is missing type");
    } else {
      f->type = finish(t);
    }
    return finish(f);
  }

  if (typeSetsOk && gotOp(Op::Tilde)) {
    // [name] "~" ...
    f->type = embeddedElem(nullptr)->type;
    return finish(f);
  }

  f->type = typeOrNull();
  if (typeSetsOk && gotOp(Op::Or) && f->type != nullptr) {
    // [name] type "|"
    f = embeddedElem(f);
  }
  if (f->name != nullptr || f->type != nullptr) return finish(f);

  syntaxError("expected " + tokstring(follow));
  advance(TokenBit(Token::Comma) | TokenBit(follow));
  return nullptr;
}

// Parameters    = "(" [ ParameterList [ "," ] ] ")" .
// ParameterList = ParameterDecl { "," ParameterDecl } .
// "(" or "[" has already been consumed.
// If name != null, it is the first name after "(" or "[".
// If typ != null, name must be != null, and (name, typ) is the first field in the list.
// In the result list, either all fields have a name, or no field has a name.
List<Field> Parser::paramList(Name* name, Expr* typ, Token close, bool requireNames,
                              bool dddok) {
  auto newField = [&](Name* n, Expr* t) {
    Field* par = make<Field>(n->pos, n->begin);
    par->name = n;
    par->type = t;
    par->end = t->end;
    return par;
  };

  // list won't invoke its function argument if we're at the end of the
  // parameter list. If we have a complete field, handle this case here.
  if (name != nullptr && typ != nullptr && s_.tok == close) {
    next();
    Field** p = static_cast<Field**>(arena_->Allocate(sizeof(Field*), alignof(Field*)));
    p[0] = newField(name, typ);
    return {p, 1};
  }

  size_t m = mark();
  int named = 0;  // number of parameters that have an explicit name and type
  int typed = 0;  // number of parameters that have an explicit type
  Pos end = list("parameter list", Token::Comma, close, [&] {
    Field* par;
    if (typ != nullptr) {
      par = newField(name, typ);
    } else {
      par = paramDeclOrNull(name, close);
    }
    name = nullptr;  // 1st name was consumed if present
    typ = nullptr;   // 1st type was consumed if present
    if (par != nullptr) {
      if (par->name != nullptr && par->type != nullptr) named++;
      if (par->type != nullptr) typed++;
      push(par);
    }
    return false;
  });

  size_t n = scratch_.size() - m;
  if (n == 0) return {};
  auto at = [&](size_t i) { return static_cast<Field*>(scratch_[m + i]); };

  // distribute parameter types (n > 0)
  if (named == 0 && !requireNames) {
    // all unnamed and we're not in a type parameter list => found names are named types
    for (size_t i = 0; i < n; i++) {
      Field* par = at(i);
      if (Name* t = par->name) {
        par->type = t;
        par->name = nullptr;
      }
    }
  } else if (static_cast<size_t>(named) != n) {
    // some named or we're in a type parameter list => all must be named
    Pos errPos = kNoPos;  // left-most error position (or unknown)
    Expr* t = nullptr;    // current type (from right to left)
    for (size_t i = n; i-- > 0;) {
      Field* par = at(i);
      if (par->type != nullptr) {
        t = par->type;
        if (par->name == nullptr) {
          errPos = t->begin;
          par->name = newName(errPos, errPos, "_");
        }
      } else if (t != nullptr) {
        par->type = t;
      } else {
        // par->type == null && t == null => we only have a par->name
        errPos = par->name->pos;
        // (a zero-width placeholder just after the name)
        BadExpr* b = make<BadExpr>(par->name->end);
        par->type = b;
      }
    }
    if (errPos != kNoPos) {
      // Not all parameters are named because named != n. If named == typed,
      // there must be parameters that have no types. They must be at the end
      // of the parameter list, otherwise types would have been filled in by
      // the right-to-left sweep above and there would be no error. If
      // requireNames is set, the parameter list is a type parameter list.
      std::string msg;
      if (named == typed) {
        errPos = end;  // position error at closing token ) or ]
        msg = requireNames ? "missing type constraint" : "missing parameter type";
      } else {
        if (requireNames) {
          msg = "missing type parameter name";
          // go.dev/issue/60812
          if (n == 1) msg += " or invalid array length";
        } else {
          msg = "missing parameter name";
        }
      }
      syntaxErrorAt(errPos, msg);
    }
  }

  // check use of ...
  bool first = true;  // only report first occurrence
  for (size_t i = 0; i < n; i++) {
    Field* f = at(i);
    if (auto* t = As<DotsType>(f->type); t != nullptr && (!dddok || i + 1 < n)) {
      if (first) {
        first = false;
        errorAt(t->pos, dddok ? "can only use ... with final parameter" : "invalid use of ...");
      }
      // use T instead of invalid ...T
      f->type = t->elem;
    }
  }

  return take<Field>(m);
}

}  // namespace gordian::syntax::parser_internal
