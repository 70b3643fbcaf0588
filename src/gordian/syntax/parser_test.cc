// Unit tests for the parser: the tree shape of every construct of Go 1.26,
// with node kinds, fields, identifying positions (pos) and extents
// (begin/end, checked as the source text they cover).
#include <memory>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

struct Parsed {
  SourceSet set;
  Arena arena;
  const SourceFile* src = nullptr;
  File* file = nullptr;
  int errors = 0;
  std::string first;

  // The source text a node covers.
  std::string_view Text(const Node* n) const {
    return src->content().substr(n->begin - src->base(), n->end - n->begin);
  }
  // The source from a position on (for checking what pos points at).
  std::string_view At(Pos p, size_t len) const {
    return src->content().substr(p - src->base(), len);
  }
  uint32_t Off(Pos p) const { return p - src->base(); }
};

std::unique_ptr<Parsed> ParseSrc(const std::string& text, unsigned mode = kParseDefault) {
  auto p = std::make_unique<Parsed>();
  p->src = p->set.AddFile("t.go", text);
  ParseResult r = Parse(*p->src, &p->arena, [&](const Error& e) {
    if (p->first.empty()) p->first = FormatError(*p->src, e);
  }, mode);
  p->file = r.file;
  p->errors = r.error_count;
  EXPECT_EQ(testing::CheckTree(r.file, *p->src), "") << text;
  return p;
}

// Parses a file that must have no errors.
std::unique_ptr<Parsed> Ok(const std::string& text) {
  auto p = ParseSrc(text);
  EXPECT_EQ(p->errors, 0) << p->first << "\n" << text;
  return p;
}

template <class T>
T* Must(Node* n) {
  T* t = As<T>(n);
  EXPECT_NE(t, nullptr) << "got " << (n ? NodeKindName(n->kind) : "null") << ", want "
                        << NodeKindName(T::kKind);
  if (t == nullptr) throw std::runtime_error("wrong node kind");
  return t;
}

// Expressions, parsed as the value of `var _ = x`.
struct ExprP {
  std::unique_ptr<Parsed> p;
  Expr* x;
};
ExprP ParseExpr(const std::string& x) {
  auto p = Ok("package p\nvar _ = " + x + "\n");
  Expr* e = Must<VarDecl>(p->file->decls[0])->values;
  return {std::move(p), e};
}

// Types, parsed as the type of `var _ T`.
ExprP ParseType(const std::string& t) {
  auto p = Ok("package p\nvar _ " + t + "\n");
  Expr* e = Must<VarDecl>(p->file->decls[0])->type;
  return {std::move(p), e};
}

// Statements, parsed in a function body.
struct StmtP {
  std::unique_ptr<Parsed> p;
  List<Stmt> list;
  Stmt* s;
};
StmtP ParseStmts(const std::string& body) {
  auto p = Ok("package p\nfunc f() {\n" + body + "\n}\n");
  auto* fd = Must<FuncDecl>(p->file->decls[0]);
  List<Stmt> l = fd->body->list;
  EXPECT_FALSE(l.empty());
  Stmt* s = l.empty() ? nullptr : l[0];
  return {std::move(p), l, s};
}

// ----------------------------------------------------------------------------
// Files, imports and declarations

TEST(Parser, FileAndComments) {
  auto p = Ok("// Package p.\npackage p // trailing\n\n/* block */\nvar x int\n");
  File* f = p->file;
  EXPECT_EQ(f->source, p->src);
  EXPECT_EQ(f->pkg_name->value, "p");
  EXPECT_EQ(p->At(f->pos, 7), "package");
  EXPECT_EQ(p->Off(f->begin), 0u);
  EXPECT_EQ(p->Off(f->end), p->src->size());
  EXPECT_EQ(p->Off(f->eof), p->src->size());
  ASSERT_EQ(f->comments.size(), 3u);
  EXPECT_EQ(f->comments[0].text, "// Package p.");
  EXPECT_EQ(f->comments[1].text, "// trailing");
  EXPECT_EQ(f->comments[2].text, "/* block */");
  EXPECT_EQ(p->At(f->comments[2].pos, 2), "/*");
  ASSERT_EQ(f->decls.size(), 1u);
  EXPECT_EQ(p->Text(f->decls[0]), "var x int");
}

TEST(Parser, Imports) {
  auto p = Ok(
      "package p\n"
      "import \"fmt\"\n"
      "import (\n"
      "\t\"os\"\n"
      "\tm \"math\"\n"
      "\t. \"strings\"\n"
      "\t_ \"embed\"\n"
      ")\n");
  File* f = p->file;
  ASSERT_EQ(f->decls.size(), 5u);
  auto* d0 = Must<ImportDecl>(f->decls[0]);
  EXPECT_EQ(d0->group, nullptr);
  EXPECT_EQ(d0->local_pkg_name, nullptr);
  EXPECT_EQ(d0->path->value, "\"fmt\"");
  EXPECT_EQ(d0->path->lit_kind, LitKind::String);
  EXPECT_EQ(p->Text(d0), "import \"fmt\"");  // an ungrouped decl starts at its keyword
  EXPECT_EQ(p->At(d0->pos, 5), "\"fmt\"");

  Group* g = Must<ImportDecl>(f->decls[1])->group;
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(p->At(g->lparen, 1), "(");
  EXPECT_EQ(p->At(g->rparen, 1), ")");
  for (int i = 1; i < 5; i++) EXPECT_EQ(Must<ImportDecl>(f->decls[i])->group, g);
  EXPECT_EQ(p->Text(f->decls[1]), "\"os\"");
  EXPECT_EQ(p->Text(f->decls[2]), "m \"math\"");
  EXPECT_EQ(Must<ImportDecl>(f->decls[2])->local_pkg_name->value, "m");
  EXPECT_EQ(Must<ImportDecl>(f->decls[3])->local_pkg_name->value, ".");
  EXPECT_EQ(Must<ImportDecl>(f->decls[4])->local_pkg_name->value, "_");
}

TEST(Parser, ConstAndVarDecls) {
  auto p = Ok(
      "package p\n"
      "const (\n"
      "\tA = iota\n"
      "\tB\n"
      "\tC, D float64 = 1, 2\n"
      ")\n"
      "var x, y = f()\n"
      "var z []int\n"
      "var (\n"
      "\tu int = 1\n"
      ")\n");
  File* f = p->file;
  ASSERT_EQ(f->decls.size(), 6u);
  auto* a = Must<ConstDecl>(f->decls[0]);
  EXPECT_EQ(a->names.size(), 1u);
  EXPECT_EQ(a->type, nullptr);
  EXPECT_EQ(Must<Name>(a->values)->value, "iota");
  auto* b = Must<ConstDecl>(f->decls[1]);
  EXPECT_EQ(b->values, nullptr);
  EXPECT_EQ(b->type, nullptr);
  EXPECT_EQ(b->group, a->group);
  auto* c = Must<ConstDecl>(f->decls[2]);
  ASSERT_EQ(c->names.size(), 2u);
  EXPECT_EQ(c->names[1]->value, "D");
  EXPECT_EQ(Must<Name>(c->type)->value, "float64");
  auto* vals = Must<ListExpr>(c->values);
  EXPECT_EQ(vals->elems.size(), 2u);
  EXPECT_EQ(p->Text(vals), "1, 2");
  EXPECT_EQ(p->Text(c), "C, D float64 = 1, 2");

  auto* x = Must<VarDecl>(f->decls[3]);
  EXPECT_EQ(x->group, nullptr);
  EXPECT_EQ(x->names.size(), 2u);
  EXPECT_EQ(x->type, nullptr);
  EXPECT_TRUE(Is<CallExpr>(x->values));
  EXPECT_EQ(p->Text(x), "var x, y = f()");
  auto* z = Must<VarDecl>(f->decls[4]);
  EXPECT_TRUE(Is<SliceType>(z->type));
  EXPECT_EQ(z->values, nullptr);
  auto* u = Must<VarDecl>(f->decls[5]);
  EXPECT_NE(u->group, nullptr);
  EXPECT_NE(u->group, a->group);
  EXPECT_EQ(p->Text(u), "u int = 1");
}

TEST(Parser, TypeDecls) {
  auto p = Ok(
      "package p\n"
      "type A = int\n"
      "type T[P any, Q ~int | string] struct{}\n"
      "type L[P any] = []P\n"
      "type N [4]int\n"
      "type M [N]int\n"
      "type R[P *C] struct{}\n"        // an array type: length P*C
      "type S[P *C,] struct{}\n"       // a type parameter list
      "type U[P *[]int] struct{}\n"    // a type parameter list
      "type V[P (C)] struct{}\n"       // an array type: length P(C)
      "type W[P ([]int)] struct{}\n"   // a type parameter list
      "type X []int\n");
  File* f = p->file;
  ASSERT_EQ(f->decls.size(), 11u);
  auto* a = Must<TypeDecl>(f->decls[0]);
  EXPECT_TRUE(a->alias);
  EXPECT_TRUE(a->tparams.empty());
  EXPECT_EQ(p->Text(a), "type A = int");

  auto* t = Must<TypeDecl>(f->decls[1]);
  EXPECT_FALSE(t->alias);
  ASSERT_EQ(t->tparams.size(), 2u);
  EXPECT_EQ(t->tparams[0]->name->value, "P");
  EXPECT_EQ(Must<Name>(t->tparams[0]->type)->value, "any");
  auto* u = Must<Operation>(t->tparams[1]->type);
  EXPECT_EQ(u->op, Op::Or);
  EXPECT_EQ(Must<Operation>(u->x)->op, Op::Tilde);
  EXPECT_EQ(Must<Operation>(u->x)->y, nullptr);
  EXPECT_EQ(p->Text(u), "~int | string");
  EXPECT_EQ(p->Text(t->tparams[1]), "Q ~int | string");
  EXPECT_TRUE(Is<StructType>(t->type));

  auto* l = Must<TypeDecl>(f->decls[2]);
  EXPECT_TRUE(l->alias);
  EXPECT_EQ(l->tparams.size(), 1u);
  EXPECT_TRUE(Is<SliceType>(l->type));

  EXPECT_EQ(p->Text(Must<ArrayType>(Must<TypeDecl>(f->decls[3])->type)->len), "4");
  auto* m = Must<TypeDecl>(f->decls[4]);
  EXPECT_TRUE(m->tparams.empty());
  EXPECT_EQ(Must<Name>(Must<ArrayType>(m->type)->len)->value, "N");

  auto* r = Must<TypeDecl>(f->decls[5]);
  EXPECT_TRUE(r->tparams.empty());
  EXPECT_EQ(Must<Operation>(Must<ArrayType>(r->type)->len)->op, Op::Mul);

  auto* s = Must<TypeDecl>(f->decls[6]);
  ASSERT_EQ(s->tparams.size(), 1u);
  auto* ptr = Must<Operation>(s->tparams[0]->type);
  EXPECT_EQ(ptr->op, Op::Mul);
  EXPECT_EQ(ptr->y, nullptr);
  EXPECT_EQ(p->Text(ptr), "*C");

  auto* u2 = Must<TypeDecl>(f->decls[7]);
  ASSERT_EQ(u2->tparams.size(), 1u);
  EXPECT_EQ(p->Text(u2->tparams[0]->type), "*[]int");

  auto* v = Must<TypeDecl>(f->decls[8]);
  EXPECT_TRUE(v->tparams.empty());
  EXPECT_TRUE(Is<CallExpr>(Must<ArrayType>(v->type)->len));

  auto* w = Must<TypeDecl>(f->decls[9]);
  ASSERT_EQ(w->tparams.size(), 1u);
  auto* pw = Must<ParenExpr>(w->tparams[0]->type);  // parentheses are kept
  EXPECT_EQ(p->Text(pw), "([]int)");
  EXPECT_TRUE(Is<SliceType>(pw->x));

  EXPECT_TRUE(Is<SliceType>(Must<TypeDecl>(f->decls[10])->type));
}

TEST(Parser, FuncDecls) {
  auto p = Ok(
      "package p\n"
      "func f() {}\n"
      "func g(a, b int, c ...string) (n int, err error) { return }\n"
      "func h[K comparable, V any](m map[K]V) []K { return nil }\n"
      "func (r *T[P]) M(x P) P { return x }\n"
      "func (T) N()\n"
      "func (t T[_, Q]) O() {}\n");
  File* f = p->file;
  ASSERT_EQ(f->decls.size(), 6u);
  auto* fd = Must<FuncDecl>(f->decls[0]);
  EXPECT_EQ(fd->recv, nullptr);
  EXPECT_EQ(fd->name->value, "f");
  EXPECT_EQ(p->At(fd->pos, 4), "func");
  EXPECT_EQ(p->Text(fd), "func f() {}");
  EXPECT_EQ(p->Text(fd->type), "()");  // a declaration's FuncType starts at "("
  EXPECT_TRUE(fd->body->list.empty());
  EXPECT_EQ(p->At(fd->body->rbrace, 1), "}");

  auto* g = Must<FuncDecl>(f->decls[1]);
  ASSERT_EQ(g->type->params.size(), 3u);
  Field* a = g->type->params[0];
  Field* b = g->type->params[1];
  EXPECT_EQ(a->name->value, "a");
  EXPECT_EQ(a->type, b->type);  // declared together: one shared type
  EXPECT_EQ(p->Text(a), "a");
  EXPECT_EQ(p->Text(b), "b int");
  auto* dots = Must<DotsType>(g->type->params[2]->type);
  EXPECT_EQ(p->Text(dots), "...string");
  ASSERT_EQ(g->type->results.size(), 2u);
  EXPECT_EQ(g->type->results[1]->name->value, "err");
  EXPECT_EQ(p->Text(g->type), "(a, b int, c ...string) (n int, err error)");

  auto* h = Must<FuncDecl>(f->decls[2]);
  ASSERT_EQ(h->tparams.size(), 2u);
  EXPECT_EQ(h->tparams[0]->name->value, "K");
  EXPECT_EQ(h->type->results.size(), 1u);
  EXPECT_EQ(h->type->results[0]->name, nullptr);
  EXPECT_TRUE(Is<SliceType>(h->type->results[0]->type));
  EXPECT_EQ(p->Text(h->type), "(m map[K]V) []K");

  auto* m = Must<FuncDecl>(f->decls[3]);
  ASSERT_NE(m->recv, nullptr);
  EXPECT_EQ(m->recv->name->value, "r");
  auto* star = Must<Operation>(m->recv->type);
  auto* inst = Must<IndexExpr>(star->x);
  EXPECT_EQ(Must<Name>(inst->index)->value, "P");
  EXPECT_EQ(p->Text(m->recv), "r *T[P]");
  EXPECT_TRUE(m->tparams.empty());

  auto* n = Must<FuncDecl>(f->decls[4]);
  EXPECT_EQ(n->body, nullptr);
  EXPECT_EQ(n->recv->name, nullptr);
  EXPECT_EQ(p->Text(n), "func (T) N()");

  auto* o = Must<FuncDecl>(f->decls[5]);
  auto* inst2 = Must<IndexExpr>(o->recv->type);
  auto* l = Must<ListExpr>(inst2->index);
  EXPECT_EQ(l->elems.size(), 2u);
  EXPECT_EQ(p->Text(l), "_, Q");
}

TEST(Parser, UnnamedParametersAreTypes) {
  auto p = Ok("package p\nfunc f(int, []string, p.T, ...error) (bool, func())\n");
  auto* fd = Must<FuncDecl>(p->file->decls[0]);
  ASSERT_EQ(fd->type->params.size(), 4u);
  for (Field* par : fd->type->params) EXPECT_EQ(par->name, nullptr);
  EXPECT_EQ(Must<Name>(fd->type->params[0]->type)->value, "int");
  EXPECT_TRUE(Is<SelectorExpr>(fd->type->params[2]->type));
  EXPECT_TRUE(Is<DotsType>(fd->type->params[3]->type));
  EXPECT_TRUE(Is<FuncType>(fd->type->results[1]->type));
}

TEST(Parser, StructTypes) {
  auto p = Ok(
      "package p\n"
      "type S struct {\n"
      "\ta, b int `json:\"a\"`\n"
      "\tc    string\n"
      "\t*E\n"
      "\tpkg.F\n"
      "\tG[int, string] \"g\"\n"
      "\th [N]int\n"
      "\tI[N]\n"
      "}\n");
  auto* st = Must<StructType>(Must<TypeDecl>(p->file->decls[0])->type);
  ASSERT_EQ(st->fields.size(), 8u);
  ASSERT_EQ(st->tags.size(), 8u);
  Field** f = st->fields.data();
  EXPECT_EQ(f[0]->type, f[1]->type);
  EXPECT_EQ(st->tags[0], st->tags[1]);  // the tag is shared too
  EXPECT_EQ(st->tags[0]->value, "`json:\"a\"`");
  EXPECT_EQ(p->Text(f[0]), "a");
  EXPECT_EQ(p->Text(f[1]), "b int `json:\"a\"`");
  EXPECT_EQ(st->tags[2], nullptr);
  EXPECT_EQ(f[3]->name, nullptr);
  EXPECT_EQ(Must<Operation>(f[3]->type)->op, Op::Mul);
  EXPECT_EQ(p->Text(f[3]), "*E");
  EXPECT_EQ(f[4]->name, nullptr);
  EXPECT_TRUE(Is<SelectorExpr>(f[4]->type));
  EXPECT_EQ(f[5]->name, nullptr);
  EXPECT_TRUE(Is<ListExpr>(Must<IndexExpr>(f[5]->type)->index));
  EXPECT_EQ(st->tags[5]->value, "\"g\"");
  EXPECT_EQ(p->Text(f[5]), "G[int, string] \"g\"");
  EXPECT_EQ(f[6]->name->value, "h");
  EXPECT_TRUE(Is<ArrayType>(f[6]->type));
  EXPECT_EQ(f[7]->name, nullptr);  // embedded I[N]
  EXPECT_EQ(p->Text(f[7]->type), "I[N]");

  auto q = Ok("package p\ntype T struct{ x int; y string }\n");
  auto* st2 = Must<StructType>(Must<TypeDecl>(q->file->decls[0])->type);
  EXPECT_EQ(st2->fields.size(), 2u);
  EXPECT_TRUE(st2->tags.empty());
  EXPECT_EQ(q->Text(st2), "struct{ x int; y string }");
}

TEST(Parser, InterfaceTypes) {
  auto p = Ok(
      "package p\n"
      "type I interface {\n"
      "\tM(x int) (string, error)\n"
      "\tio.Reader\n"
      "\tJ[int]\n"
      "\t~int | ~string | float64\n"
      "\tcomparable\n"
      "}\n");
  auto* it = Must<InterfaceType>(Must<TypeDecl>(p->file->decls[0])->type);
  ASSERT_EQ(it->methods.size(), 5u);
  Field* m = it->methods[0];
  EXPECT_EQ(m->name->value, "M");
  auto* ft = Must<FuncType>(m->type);
  EXPECT_EQ(ft->params.size(), 1u);
  EXPECT_EQ(ft->results.size(), 2u);
  EXPECT_EQ(p->Text(m), "M(x int) (string, error)");
  EXPECT_EQ(it->methods[1]->name, nullptr);
  EXPECT_TRUE(Is<SelectorExpr>(it->methods[1]->type));
  EXPECT_TRUE(Is<IndexExpr>(it->methods[2]->type));
  auto* u = Must<Operation>(it->methods[3]->type);
  EXPECT_EQ(u->op, Op::Or);
  EXPECT_EQ(Must<Operation>(u->x)->op, Op::Or);  // left-associative
  EXPECT_EQ(p->Text(u), "~int | ~string | float64");
  EXPECT_EQ(Must<Name>(it->methods[4]->type)->value, "comparable");
}

TEST(Parser, OtherTypes) {
  {
    auto [p, t] = ParseType("map[string][]*int");
    auto* m = Must<MapType>(t);
    EXPECT_EQ(p->Text(m->key), "string");
    EXPECT_EQ(p->Text(m->value), "[]*int");
  }
  {
    auto [p, t] = ParseType("[...]int");  // accepted by the parser (types2 rejects it)
    EXPECT_EQ(Must<ArrayType>(t)->len, nullptr);
  }
  {
    auto [p, t] = ParseType("func(int) (a, b string)");
    auto* f = Must<FuncType>(t);
    EXPECT_EQ(p->At(f->pos, 4), "func");
    EXPECT_EQ(p->Text(f), "func(int) (a, b string)");
    EXPECT_EQ(f->results.size(), 2u);
  }
  {
    auto [p, t] = ParseType("(*T)");
    auto* px = Must<ParenExpr>(t);
    EXPECT_EQ(p->Text(px->x), "*T");
  }
  {
    auto [p, t] = ParseType("pkg.List[pkg.Elem]");
    auto* ix = Must<IndexExpr>(t);
    EXPECT_TRUE(Is<SelectorExpr>(ix->x));
    EXPECT_EQ(p->At(ix->pos, 1), "[");
  }
}

TEST(Parser, ChannelTypes) {
  struct {
    const char* src;
    ChanDir dir;
    const char* elem;
  } cases[] = {
      {"chan int", ChanDir::Both, "int"},
      {"<-chan int", ChanDir::Recv, "int"},
      {"chan<- int", ChanDir::Send, "int"},
      {"chan<- chan int", ChanDir::Send, "chan int"},
      {"chan<- <-chan int", ChanDir::Send, "<-chan int"},
      {"<-chan <-chan int", ChanDir::Recv, "<-chan int"},
      {"chan (<-chan int)", ChanDir::Both, "(<-chan int)"},
  };
  for (auto& c : cases) {
    auto [p, t] = ParseType(c.src);
    auto* ch = Must<ChanType>(t);
    EXPECT_EQ(ch->dir, c.dir) << c.src;
    EXPECT_EQ(p->Text(ch), c.src);
    EXPECT_EQ(p->Text(ch->elem), c.elem) << c.src;
  }
  // In expressions, <- is re-associated with a following channel type.
  {
    auto [p, x] = ParseExpr("(<-chan int)(nil)");
    auto* call = Must<CallExpr>(x);
    auto* ch = Must<ChanType>(Must<ParenExpr>(call->fun)->x);
    EXPECT_EQ(ch->dir, ChanDir::Recv);
    EXPECT_EQ(p->Text(ch), "<-chan int");
    EXPECT_EQ(p->At(ch->pos, 2), "<-");
  }
  {
    auto [p, x] = ParseExpr("(<-chan<- chan int)(nil)");  // = <-chan (<-chan int)
    auto* ch = Must<ChanType>(Must<ParenExpr>(Must<CallExpr>(x)->fun)->x);
    EXPECT_EQ(ch->dir, ChanDir::Recv);
    auto* inner = Must<ChanType>(ch->elem);
    EXPECT_EQ(inner->dir, ChanDir::Recv);
    EXPECT_EQ(p->Text(inner), "<- chan int");
    EXPECT_EQ(p->Text(ch), "<-chan<- chan int");
  }
  {
    auto [p, x] = ParseExpr("<-ch");
    auto* op = Must<Operation>(x);
    EXPECT_EQ(op->op, Op::Recv);
    EXPECT_EQ(op->y, nullptr);
  }
}

// ----------------------------------------------------------------------------
// Expressions

TEST(Parser, Precedence) {
  {
    auto [p, x] = ParseExpr("a + b*c - d");
    auto* sub = Must<Operation>(x);
    EXPECT_EQ(sub->op, Op::Sub);
    auto* add = Must<Operation>(sub->x);
    EXPECT_EQ(add->op, Op::Add);
    EXPECT_EQ(Must<Operation>(add->y)->op, Op::Mul);
    EXPECT_EQ(p->At(sub->pos, 1), "-");
    EXPECT_EQ(p->Text(add), "a + b*c");
  }
  {
    auto [p, x] = ParseExpr("a || b && c == d+1");
    auto* oror = Must<Operation>(x);
    EXPECT_EQ(oror->op, Op::OrOr);
    auto* andand = Must<Operation>(oror->y);
    EXPECT_EQ(andand->op, Op::AndAnd);
    auto* eq = Must<Operation>(andand->y);
    EXPECT_EQ(eq->op, Op::Eql);
    EXPECT_EQ(Must<Operation>(eq->y)->op, Op::Add);
  }
  {
    auto [p, x] = ParseExpr("-x.y[1] * ^z &^ m << 2");
    auto* shl = Must<Operation>(x);  // all precedence 5: left-associative
    EXPECT_EQ(shl->op, Op::Shl);
    auto* andnot = Must<Operation>(shl->x);
    EXPECT_EQ(andnot->op, Op::AndNot);
    auto* mul = Must<Operation>(andnot->x);
    EXPECT_EQ(mul->op, Op::Mul);
    auto* neg = Must<Operation>(mul->x);
    EXPECT_EQ(neg->op, Op::Sub);
    EXPECT_EQ(neg->y, nullptr);
    EXPECT_EQ(p->Text(neg), "-x.y[1]");
    EXPECT_EQ(Must<Operation>(mul->y)->op, Op::Xor);
  }
  {
    auto [p, x] = ParseExpr("!*p && &v != nil");
    auto* andand = Must<Operation>(x);
    auto* not_ = Must<Operation>(andand->x);
    EXPECT_EQ(not_->op, Op::Not);
    EXPECT_EQ(Must<Operation>(not_->x)->op, Op::Mul);
    EXPECT_EQ(Must<Operation>(Must<Operation>(andand->y)->x)->op, Op::And);
  }
  {
    auto [p, x] = ParseExpr("(a + b) * c");
    auto* mul = Must<Operation>(x);
    auto* paren = Must<ParenExpr>(mul->x);  // kept
    EXPECT_EQ(p->Text(paren), "(a + b)");
    EXPECT_EQ(p->At(paren->pos, 1), "(");
  }
}

TEST(Parser, PrimaryExpressions) {
  {
    auto [p, x] = ParseExpr("f(a, b...)");
    auto* c = Must<CallExpr>(x);
    EXPECT_TRUE(c->has_dots);
    EXPECT_EQ(c->args.size(), 2u);
    EXPECT_EQ(p->At(c->pos, 1), "(");
    EXPECT_EQ(p->At(c->rparen, 1), ")");
    EXPECT_EQ(p->Text(c), "f(a, b...)");
  }
  {
    auto [p, x] = ParseExpr("g(\n\t1,\n\t2,\n)");
    auto* c = Must<CallExpr>(x);
    EXPECT_FALSE(c->has_dots);
    EXPECT_EQ(c->args.size(), 2u);
  }
  {
    auto [p, x] = ParseExpr("a.b.c");
    auto* s = Must<SelectorExpr>(x);
    EXPECT_EQ(s->sel->value, "c");
    EXPECT_EQ(p->Text(s->x), "a.b");
    EXPECT_EQ(p->At(s->pos, 1), ".");
  }
  {
    auto [p, x] = ParseExpr("m[k]");
    auto* ix = Must<IndexExpr>(x);
    EXPECT_EQ(Must<Name>(ix->index)->value, "k");
  }
  {
    auto [p, x] = ParseExpr("f[int, string](1)");
    auto* c = Must<CallExpr>(x);
    auto* ix = Must<IndexExpr>(c->fun);
    EXPECT_EQ(Must<ListExpr>(ix->index)->elems.size(), 2u);
    EXPECT_EQ(p->Text(ix), "f[int, string]");
  }
  {
    auto [p, x] = ParseExpr("f[[]int]");
    EXPECT_TRUE(Is<SliceType>(Must<IndexExpr>(x)->index));
  }
  {
    auto [p, x] = ParseExpr("s[1:]");
    auto* sl = Must<SliceExpr>(x);
    EXPECT_FALSE(sl->full);
    EXPECT_NE(sl->index[0], nullptr);
    EXPECT_EQ(sl->index[1], nullptr);
    EXPECT_EQ(sl->index[2], nullptr);
  }
  {
    auto [p, x] = ParseExpr("s[:j:k]");
    auto* sl = Must<SliceExpr>(x);
    EXPECT_TRUE(sl->full);
    EXPECT_EQ(sl->index[0], nullptr);
    EXPECT_EQ(p->Text(sl->index[1]), "j");
    EXPECT_EQ(p->Text(sl->index[2]), "k");
    EXPECT_EQ(p->Text(sl), "s[:j:k]");
  }
  {
    auto [p, x] = ParseExpr("x.(interface{ M() })");
    auto* a = Must<AssertExpr>(x);
    EXPECT_TRUE(Is<InterfaceType>(a->type));
    EXPECT_EQ(p->At(a->pos, 1), ".");
    EXPECT_EQ(p->Text(a), "x.(interface{ M() })");
  }
  {
    auto [p, x] = ParseExpr("[]byte(s)");
    auto* c = Must<CallExpr>(x);
    EXPECT_TRUE(Is<SliceType>(c->fun));
  }
  {
    auto [p, x] = ParseExpr("(*T).M");
    auto* s = Must<SelectorExpr>(x);
    auto* pe = Must<ParenExpr>(s->x);
    EXPECT_EQ(Must<Operation>(pe->x)->op, Op::Mul);
  }
  {
    auto [p, x] = ParseExpr("func(x int) int { return x }(1)");
    auto* c = Must<CallExpr>(x);
    auto* fl = Must<FuncLit>(c->fun);
    EXPECT_EQ(p->Text(fl), "func(x int) int { return x }");
    EXPECT_EQ(p->Text(fl->type), "func(x int) int");
    EXPECT_EQ(fl->body->list.size(), 1u);
  }
  {
    auto [p, x] = ParseExpr("'x' + 1.5i");
    auto* op = Must<Operation>(x);
    EXPECT_EQ(Must<BasicLit>(op->x)->lit_kind, LitKind::Rune);
    EXPECT_EQ(Must<BasicLit>(op->y)->lit_kind, LitKind::Imag);
  }
}

TEST(Parser, CompositeLiterals) {
  {
    auto [p, x] = ParseExpr("T{1, 2}");
    auto* c = Must<CompositeLit>(x);
    EXPECT_EQ(Must<Name>(c->type)->value, "T");
    EXPECT_EQ(c->elems.size(), 2u);
    EXPECT_EQ(c->nkeys, 0u);
    EXPECT_EQ(p->At(c->pos, 1), "{");
    EXPECT_EQ(p->At(c->rbrace, 1), "}");
    EXPECT_EQ(p->Text(c), "T{1, 2}");
  }
  {
    auto [p, x] = ParseExpr("map[string][]int{\"a\": {1}, \"b\": nil,}");
    auto* c = Must<CompositeLit>(x);
    EXPECT_TRUE(Is<MapType>(c->type));
    EXPECT_EQ(c->nkeys, 2u);
    auto* kv = Must<KeyValueExpr>(c->elems[0]);
    EXPECT_EQ(p->At(kv->pos, 1), ":");
    auto* inner = Must<CompositeLit>(kv->value);
    EXPECT_EQ(inner->type, nullptr);  // elided
    EXPECT_EQ(p->Text(kv), "\"a\": {1}");
  }
  {
    auto [p, x] = ParseExpr("&pkg.T[int]{X: 1}");
    auto* amp = Must<Operation>(x);
    EXPECT_EQ(amp->op, Op::And);
    auto* c = Must<CompositeLit>(amp->x);
    EXPECT_TRUE(Is<IndexExpr>(c->type));
    EXPECT_EQ(c->nkeys, 1u);
  }
  {
    auto [p, x] = ParseExpr("[...]string{2: \"x\"}");
    auto* c = Must<CompositeLit>(x);
    EXPECT_EQ(Must<ArrayType>(c->type)->len, nullptr);
  }
  {
    auto [p, x] = ParseExpr("struct{ a int }{a: 1}");
    EXPECT_TRUE(Is<StructType>(Must<CompositeLit>(x)->type));
  }
}

// No composite literal with a bare type name at expression level in a control
// clause header, exactly as Go's parser (xnest).
TEST(Parser, CompositeLiteralsInHeaders) {
  {
    auto s = ParseStmts("if x := (T{}); x.ok {\n}");
    auto* ifs = Must<IfStmt>(s.s);
    auto* as = Must<AssignStmt>(ifs->init);
    EXPECT_TRUE(Is<CompositeLit>(Must<ParenExpr>(as->rhs)->x));
  }
  {
    auto s = ParseStmts("for _, v := range []T{{1}, {2}} {\n\t_ = v\n}");
    auto* rc = Must<RangeClause>(Must<ForStmt>(s.s)->init);
    EXPECT_TRUE(Is<CompositeLit>(rc->x));  // []T is a type literal: allowed
  }
  {
    auto s = ParseStmts("if f(T{}) {\n}");  // nested in a call: allowed
    EXPECT_TRUE(Is<CallExpr>(Must<IfStmt>(s.s)->cond));
  }
  {
    auto s = ParseStmts("switch x {\n}");
    auto* sw = Must<SwitchStmt>(s.s);
    EXPECT_EQ(Must<Name>(sw->tag)->value, "x");
    EXPECT_TRUE(sw->body.empty());
  }
  {
    // if x == T {} — T{} is not a composite literal here: the braces are the
    // if's body.
    auto s = ParseStmts("if x == T {\n}");
    auto* ifs = Must<IfStmt>(s.s);
    EXPECT_EQ(s.p->Text(ifs->cond), "x == T");
    EXPECT_TRUE(Is<Name>(Must<Operation>(ifs->cond)->y));
  }
  {
    auto p = ParseSrc("package p\nfunc f() {\n\tif x == T{} {\n\t}\n}\n");
    EXPECT_GT(p->errors, 0);
  }
}

// ----------------------------------------------------------------------------
// Statements

TEST(Parser, SimpleStatements) {
  auto s = ParseStmts(
      "x := 1\n"
      "a, b = b, a\n"
      "x += 2\n"
      "x++\n"
      "y--\n"
      "ch <- v\n"
      "f()\n"
      "<-ch\n"
      "var z int\n"
      "const c = 1\n"
      "type T int\n"
      ";");
  ASSERT_EQ(s.list.size(), 12u);
  auto* def = Must<AssignStmt>(s.list[0]);
  EXPECT_EQ(def->op, Op::Def);
  EXPECT_EQ(s.p->At(def->pos, 2), ":=");
  EXPECT_EQ(s.p->Text(def), "x := 1");
  auto* swap = Must<AssignStmt>(s.list[1]);
  EXPECT_EQ(swap->op, Op::None);
  EXPECT_TRUE(Is<ListExpr>(swap->lhs));
  EXPECT_TRUE(Is<ListExpr>(swap->rhs));
  auto* add = Must<AssignStmt>(s.list[2]);
  EXPECT_EQ(add->op, Op::Add);
  EXPECT_NE(add->rhs, nullptr);
  auto* inc = Must<AssignStmt>(s.list[3]);
  EXPECT_EQ(inc->op, Op::Add);
  EXPECT_EQ(inc->rhs, nullptr);
  EXPECT_EQ(s.p->Text(inc), "x++");
  EXPECT_EQ(Must<AssignStmt>(s.list[4])->op, Op::Sub);
  auto* send = Must<SendStmt>(s.list[5]);
  EXPECT_EQ(s.p->Text(send->chan), "ch");
  EXPECT_EQ(s.p->At(send->pos, 2), "<-");
  EXPECT_TRUE(Is<CallExpr>(Must<ExprStmt>(s.list[6])->x));
  EXPECT_EQ(Must<Operation>(Must<ExprStmt>(s.list[7])->x)->op, Op::Recv);
  auto* ds = Must<DeclStmt>(s.list[8]);
  EXPECT_EQ(s.p->Text(ds), "var z int");
  EXPECT_TRUE(Is<VarDecl>(ds->decls[0]));
  EXPECT_TRUE(Is<ConstDecl>(Must<DeclStmt>(s.list[9])->decls[0]));
  EXPECT_TRUE(Is<TypeDecl>(Must<DeclStmt>(s.list[10])->decls[0]));
  auto* empty = Must<EmptyStmt>(s.list[11]);
  EXPECT_EQ(s.p->Text(empty), ";");
}

TEST(Parser, BranchesAndLabels) {
  auto s = ParseStmts(
      "outer:\n"
      "\tfor {\n"
      "\t\tbreak outer\n"
      "\t}\n"
      "\tgoto outer\n"
      "\tcontinue\n"
      "\treturn\n"
      "\treturn 1, 2\n"
      "\tswitch { case true: fallthrough; default: }\n"
      "L:\n");
  ASSERT_EQ(s.list.size(), 7u);
  auto* ls = Must<LabeledStmt>(s.list[0]);
  EXPECT_EQ(ls->label->value, "outer");
  EXPECT_EQ(s.p->At(ls->pos, 1), ":");
  auto* fs = Must<ForStmt>(ls->stmt);
  auto* br = Must<BranchStmt>(fs->body->list[0]);
  EXPECT_EQ(br->tok, Token::Break);
  EXPECT_EQ(br->label->value, "outer");
  EXPECT_EQ(s.p->Text(br), "break outer");
  EXPECT_EQ(Must<BranchStmt>(s.list[1])->tok, Token::Goto);
  auto* cont = Must<BranchStmt>(s.list[2]);
  EXPECT_EQ(cont->tok, Token::Continue);
  EXPECT_EQ(cont->label, nullptr);
  EXPECT_EQ(Must<ReturnStmt>(s.list[3])->results, nullptr);
  EXPECT_EQ(Must<ListExpr>(Must<ReturnStmt>(s.list[4])->results)->elems.size(), 2u);
  auto* sw = Must<SwitchStmt>(s.list[5]);
  EXPECT_EQ(Must<BranchStmt>(sw->body[0]->body[0])->tok, Token::Fallthrough);
  auto* l = Must<LabeledStmt>(s.list[6]);
  EXPECT_TRUE(Is<EmptyStmt>(l->stmt));
}

TEST(Parser, IfStatements) {
  auto s = ParseStmts(
      "if x := f(); x > 0 {\n"
      "} else if y {\n"
      "} else {\n"
      "\treturn\n"
      "}");
  auto* ifs = Must<IfStmt>(s.s);
  EXPECT_TRUE(Is<AssignStmt>(ifs->init));
  EXPECT_EQ(Must<Operation>(ifs->cond)->op, Op::Gtr);
  EXPECT_EQ(s.p->At(ifs->pos, 2), "if");
  auto* elif = Must<IfStmt>(ifs->else_);
  EXPECT_EQ(elif->init, nullptr);
  EXPECT_EQ(Must<Name>(elif->cond)->value, "y");
  auto* els = Must<BlockStmt>(elif->else_);
  EXPECT_EQ(els->list.size(), 1u);
  EXPECT_EQ(s.p->Text(ifs), "if x := f(); x > 0 {\n} else if y {\n} else {\n\treturn\n}");
  EXPECT_EQ(s.p->Text(elif), "if y {\n} else {\n\treturn\n}");
}

TEST(Parser, ForStatements) {
  auto s = ParseStmts(
      "for i := 0; i < n; i++ {\n}\n"
      "for x < 10 {\n}\n"
      "for {\n}\n"
      "for k, v := range m {\n}\n"
      "for k = range m {\n}\n"
      "for range ch {\n}\n"
      "for i := range 10 {\n}\n"
      "for x := range seq {\n}\n"
      "for ; ; {\n}\n");
  ASSERT_EQ(s.list.size(), 9u);
  auto* f0 = Must<ForStmt>(s.list[0]);
  EXPECT_TRUE(Is<AssignStmt>(f0->init));
  EXPECT_TRUE(Is<Operation>(f0->cond));
  EXPECT_EQ(Must<AssignStmt>(f0->post)->rhs, nullptr);
  auto* f1 = Must<ForStmt>(s.list[1]);
  EXPECT_EQ(f1->init, nullptr);
  EXPECT_NE(f1->cond, nullptr);
  EXPECT_EQ(f1->post, nullptr);
  auto* f2 = Must<ForStmt>(s.list[2]);
  EXPECT_EQ(f2->init, nullptr);
  EXPECT_EQ(f2->cond, nullptr);
  auto* r3 = Must<RangeClause>(Must<ForStmt>(s.list[3])->init);
  EXPECT_TRUE(r3->def);
  EXPECT_EQ(Must<ListExpr>(r3->lhs)->elems.size(), 2u);
  EXPECT_EQ(s.p->Text(r3), "k, v := range m");
  EXPECT_EQ(s.p->At(r3->pos, 5), "range");
  auto* r4 = Must<RangeClause>(Must<ForStmt>(s.list[4])->init);
  EXPECT_FALSE(r4->def);
  EXPECT_EQ(Must<Name>(r4->lhs)->value, "k");
  auto* r5 = Must<RangeClause>(Must<ForStmt>(s.list[5])->init);
  EXPECT_EQ(r5->lhs, nullptr);
  EXPECT_EQ(s.p->Text(r5), "range ch");
  auto* r6 = Must<RangeClause>(Must<ForStmt>(s.list[6])->init);
  EXPECT_EQ(Must<BasicLit>(r6->x)->value, "10");
  auto* f8 = Must<ForStmt>(s.list[8]);
  EXPECT_EQ(f8->init, nullptr);
  EXPECT_EQ(f8->cond, nullptr);
  EXPECT_EQ(f8->post, nullptr);
}

TEST(Parser, SwitchStatements) {
  auto s = ParseStmts(
      "switch x := f(); x {\n"
      "case 1, 2:\n"
      "\tg()\n"
      "case 3:\n"
      "default:\n"
      "}\n"
      "switch y := v.(type) {\n"
      "case int, string:\n"
      "case nil:\n"
      "}\n"
      "switch v.(type) {\n"
      "}\n"
      "switch {\n"
      "case a > b:\n"
      "}");
  ASSERT_EQ(s.list.size(), 4u);
  auto* s0 = Must<SwitchStmt>(s.list[0]);
  EXPECT_TRUE(Is<AssignStmt>(s0->init));
  EXPECT_EQ(Must<Name>(s0->tag)->value, "x");
  ASSERT_EQ(s0->body.size(), 3u);
  CaseClause* c0 = s0->body[0];
  EXPECT_EQ(Must<ListExpr>(c0->cases)->elems.size(), 2u);
  EXPECT_EQ(c0->body.size(), 1u);
  EXPECT_EQ(s.p->At(c0->colon, 1), ":");
  EXPECT_EQ(s.p->Text(c0), "case 1, 2:\n\tg()");
  EXPECT_EQ(s.p->Text(s0->body[1]), "case 3:");
  EXPECT_EQ(s0->body[2]->cases, nullptr);
  EXPECT_EQ(s.p->At(s0->rbrace, 1), "}");

  auto* s1 = Must<SwitchStmt>(s.list[1]);
  EXPECT_EQ(s1->init, nullptr);
  auto* g = Must<TypeSwitchGuard>(s1->tag);
  EXPECT_EQ(g->lhs->value, "y");
  EXPECT_EQ(Must<Name>(g->x)->value, "v");
  EXPECT_EQ(s.p->Text(g), "y := v.(type)");
  EXPECT_EQ(s.p->At(g->pos, 1), ".");

  auto* g2 = Must<TypeSwitchGuard>(Must<SwitchStmt>(s.list[2])->tag);
  EXPECT_EQ(g2->lhs, nullptr);
  EXPECT_EQ(s.p->Text(g2), "v.(type)");
  EXPECT_EQ(Must<SwitchStmt>(s.list[3])->tag, nullptr);
}

TEST(Parser, SelectStatements) {
  auto s = ParseStmts(
      "select {\n"
      "case v := <-ch:\n"
      "\t_ = v\n"
      "case v, ok = <-ch:\n"
      "case ch <- 1:\n"
      "case <-ch:\n"
      "default:\n"
      "}");
  auto* sel = Must<SelectStmt>(s.s);
  ASSERT_EQ(sel->body.size(), 5u);
  auto* c0 = Must<AssignStmt>(sel->body[0]->comm);
  EXPECT_EQ(c0->op, Op::Def);
  EXPECT_EQ(Must<Operation>(c0->rhs)->op, Op::Recv);
  EXPECT_EQ(sel->body[0]->body.size(), 1u);
  auto* c1 = Must<AssignStmt>(sel->body[1]->comm);
  EXPECT_EQ(c1->op, Op::None);
  EXPECT_EQ(Must<ListExpr>(c1->lhs)->elems.size(), 2u);
  EXPECT_TRUE(Is<SendStmt>(sel->body[2]->comm));
  EXPECT_EQ(Must<Operation>(Must<ExprStmt>(sel->body[3]->comm)->x)->op, Op::Recv);
  EXPECT_EQ(sel->body[4]->comm, nullptr);
  EXPECT_EQ(s.p->Text(sel->body[2]), "case ch <- 1:");
  EXPECT_EQ(s.p->At(sel->pos, 6), "select");
}

TEST(Parser, GoAndDefer) {
  auto s = ParseStmts("go f(x)\ndefer mu.Unlock()\ngo func() {\n}()");
  ASSERT_EQ(s.list.size(), 3u);
  auto* g = Must<CallStmt>(s.list[0]);
  EXPECT_EQ(g->tok, Token::Go);
  EXPECT_TRUE(Is<CallExpr>(g->call));
  EXPECT_EQ(s.p->Text(g), "go f(x)");
  EXPECT_EQ(Must<CallStmt>(s.list[1])->tok, Token::Defer);
  EXPECT_TRUE(Is<FuncLit>(Must<CallExpr>(Must<CallStmt>(s.list[2])->call)->fun));
}

TEST(Parser, BlocksAndExtents) {
  auto s = ParseStmts("{\n\tx := 1\n\t{\n\t}\n}");
  auto* b = Must<BlockStmt>(s.s);
  EXPECT_EQ(b->list.size(), 2u);
  EXPECT_EQ(s.p->At(b->pos, 1), "{");
  EXPECT_EQ(s.p->At(b->rbrace, 1), "}");
  EXPECT_EQ(s.p->Text(b), "{\n\tx := 1\n\t{\n\t}\n}");
  EXPECT_EQ(s.p->Text(b->list[0]), "x := 1");  // newline semicolon excluded
}

// ----------------------------------------------------------------------------
// Recovery trees

TEST(Parser, BadExprForFailedSubtrees) {
  auto p = ParseSrc("package p\nvar x = )\nvar y = 1\n");
  EXPECT_EQ(p->errors, 1);
  ASSERT_EQ(p->file->decls.size(), 2u);
  EXPECT_TRUE(Is<BadExpr>(Must<VarDecl>(p->file->decls[0])->values));
  EXPECT_EQ(Must<BasicLit>(Must<VarDecl>(p->file->decls[1])->values)->value, "1");
}

TEST(Parser, RecoveryKeepsLaterDeclarations) {
  auto p = ParseSrc(
      "package p\n"
      "func f() {\n"
      "\tx := \n"
      "\tif {\n"
      "\t}\n"
      "}\n"
      "func g() {}\n"
      "type T struct{ a int; 1 }\n"
      "func h() {}\n");
  EXPECT_EQ(p->errors, 2) << p->first;
  int funcs = 0;
  for (Decl* d : p->file->decls) {
    if (auto* fd = As<FuncDecl>(d)) {
      funcs++;
      EXPECT_NE(fd->name, nullptr);
    }
  }
  EXPECT_EQ(funcs, 3);
}

TEST(Parser, ParseResultFields) {
  SourceSet set;
  SourceFile* f = set.AddFile("e.go", "package p\nvar = 1\nvar = 2\n");
  Arena arena;
  ParseResult r = Parse(*f, &arena, nullptr);  // no handler: errors only counted
  EXPECT_EQ(r.error_count, 2);
  EXPECT_EQ(FormatError(*f, r.first_error), "e.go:2:5: syntax error: unexpected =, expected name");
  ASSERT_NE(r.file, nullptr);
  EXPECT_EQ(r.file->pkg_name->value, "p");
}

TEST(Parser, CheckTreeDetectsBrokenTrees) {
  auto p = Ok("package p\nvar x = a + b\n");
  auto* op = Must<Operation>(Must<VarDecl>(p->file->decls[0])->values);
  EXPECT_EQ(testing::CheckTree(p->file, *p->src), "");
  std::swap(op->x, op->y);  // children out of order
  EXPECT_NE(testing::CheckTree(p->file, *p->src), "");
  std::swap(op->x, op->y);
  op->end = op->begin;  // child outside its parent
  EXPECT_NE(testing::CheckTree(p->file, *p->src), "");
}

}  // namespace
}  // namespace gordian::syntax
