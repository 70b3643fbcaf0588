// Tests of the printer: exact layouts for small inputs (gofmt's, checked
// against gofmt 1.26 by hand), the cases where layout changes meaning, comment
// placement, and printing of hand-built trees that carry no positions.
#include "gordian/syntax/printer.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gordian/syntax/equal.h"
#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/walk.h"

namespace gordian::syntax {
namespace {

using testing::ParseString;

std::vector<std::string> CommentTexts(const File& f) {
  std::vector<std::string> out;
  for (const Comment& c : f.comments) out.emplace_back(c.text);
  return out;
}

// Parses src, prints it, and checks the round trip: the output parses
// without errors to an equal tree with the same comments. Returns the output.
std::string RoundTrip(const std::string& src) {
  auto a = ParseString(src);
  EXPECT_EQ(a->errors, 0) << a->first_error << "\n" << src;
  std::string out = PrintFile(*a->file);
  auto b = ParseString(out);
  EXPECT_EQ(b->errors, 0) << b->first_error << "\n" << out;
  std::string diff;
  EXPECT_TRUE(EqualTrees(a->file, b->file, &diff)) << diff << "\n" << out;
  EXPECT_EQ(CommentTexts(*a->file), CommentTexts(*b->file)) << out;
  return out;
}

// ----------------------------------------------------------------------------
// Layout

TEST(PrinterTest, FormatsLikeGofmt) {
  const std::string in =
      "package p\n"
      "import \"fmt\"\n"
      "type T struct{ a, b int `json:\"a\"`\n"
      "c string // c\n"
      "}\n"
      "const (\n"
      "a = 1 // one\n"
      "bbbb = 22 // two\n"
      ")\n"
      "func f(x int)(int,error){\n"
      "if x>0{return x*2+1,nil}\n"
      "\n\n\n"
      "for i:=0;i<10;i++{fmt.Println(i)}\n"
      "return 0,nil}\n";
  const std::string want =
      "package p\n"
      "\n"
      "import \"fmt\"\n"
      "\n"
      "type T struct {\n"
      "\ta, b int    `json:\"a\"`\n"
      "\tc    string // c\n"
      "}\n"
      "\n"
      "const (\n"
      "\ta    = 1  // one\n"
      "\tbbbb = 22 // two\n"
      ")\n"
      "\n"
      "func f(x int) (int, error) {\n"
      "\tif x > 0 {\n"
      "\t\treturn x*2 + 1, nil\n"
      "\t}\n"
      "\n"
      "\tfor i := 0; i < 10; i++ {\n"
      "\t\tfmt.Println(i)\n"
      "\t}\n"
      "\treturn 0, nil\n"
      "}\n";
  EXPECT_EQ(RoundTrip(in), want);
  // Printing is idempotent.
  EXPECT_EQ(RoundTrip(want), want);
}

TEST(PrinterTest, KeepsGofmtFormattedSourceByteIdentical) {
  const std::string src =
      "// Package p is a test.\n"
      "package p\n"
      "\n"
      "import (\n"
      "\t\"fmt\"\n"
      "\t\"sync\"\n"
      ")\n"
      "\n"
      "// Counter counts.\n"
      "type Counter struct {\n"
      "\tmu sync.Mutex // guards n\n"
      "\tn  map[string]int\n"
      "}\n"
      "\n"
      "var table = map[string]int{\n"
      "\t\"one\":   1,\n"
      "\t\"three\": 3,\n"
      "}\n"
      "\n"
      "func (c *Counter) Inc(key string) { c.n[key]++ }\n"
      "\n"
      "func run[T any, U comparable](xs []T, f func(T) U) (out []U) {\n"
      "\tch := make(chan U, len(xs))\n"
      "\tvar wg sync.WaitGroup\n"
      "\tfor _, x := range xs {\n"
      "\t\twg.Add(1)\n"
      "\t\tgo func() {\n"
      "\t\t\tdefer wg.Done()\n"
      "\t\t\tch <- f(x)\n"
      "\t\t}()\n"
      "\t}\n"
      "\twg.Wait()\n"
      "\tclose(ch)\n"
      "\tfor {\n"
      "\t\tselect {\n"
      "\t\tcase v, ok := <-ch:\n"
      "\t\t\tif !ok {\n"
      "\t\t\t\treturn\n"
      "\t\t\t}\n"
      "\t\t\tout = append(out, v)\n"
      "\t\tdefault:\n"
      "\t\t\tfmt.Println(\"idle\")\n"
      "\t\t}\n"
      "\t}\n"
      "}\n";
  EXPECT_EQ(RoundTrip(src), src);
}

// ----------------------------------------------------------------------------
// Constructs and the cases where layout changes meaning

TEST(PrinterTest, EveryConstructRoundTrips) {
  RoundTrip(R"(package p

import (
	. "a"
	_ "b"
	x "c"
)

type (
	A = int
	B[P any, Q interface{ ~int | ~string }] struct {
		B
		*C
		x, y [4]P `tag`
		f    func(...int) (a, b int)
	}
	I interface {
		M(int) error
		fmt.Stringer
		~int | float64
	}
)

const (
	c0 = iota
	c1
	c2, c3 = 1.5e3, 'x'
)

var v, w int = 1, 2

func (b *B[P, Q]) m(a [4]int, c chan<- int, d <-chan int, e chan (<-chan int)) (r map[string][]*int) {
	var s []int
	s = s[1:2:3]
	s = s[:]
	_ = a[len(a)-1]
	_ = struct{}{}
	_ = [...]int{1, 2, 3}
	_ = map[string]int{"a": 1}
	_, _ = x.(int)
	switch t := y.(type) {
	case int, string:
		fallthrough
	case nil:
	default:
		_ = t
	}
	switch x := 1; {
	case x > 0:
	}
	select {
	case c <- 1:
	case v := <-d:
		_ = v
	case <-d:
	}
	select {}
	for i := range 10 {
		continue
	}
	for range s {
	}
	for k := range r {
		delete(r, k)
	}
	if err := f(); err != nil {
		goto L
	} else if false {
	} else {
	}
L:
	x += 1
	x &^= 2
	x <<= 3
	defer func() { recover() }()
	go f(s...)
	return
}
)");
}

TEST(PrinterTest, OperatorsDoNotMerge) {
  const std::string src =
      "package p\n\n"
      "var (\n"
      "\ta = - -x\n"
      "\tb = x - -y\n"
      "\tc = <-<-ch\n"
      "\td = x / *p\n"
      "\te = x & ^y\n"
      "\tf = x &^ y\n"
      "\tg = + +x\n"
      "\th = x + +y\n"
      "\ti = !!x\n"
      "\tj = &x.f\n"
      "\tk = x < -y\n"
      ")\n";
  EXPECT_EQ(RoundTrip(src), src);
}

TEST(PrinterTest, KeepsParenthesesThatMatter) {
  // A composite literal in an if/for/switch header must stay parenthesized,
  // and gofmt's removal of redundant parentheses would change the tree.
  const std::string src =
      "package p\n\n"
      "func f() {\n"
      "\tif x == (T{}) {\n"
      "\t}\n"
      "\tfor _, v := range (S{1, 2}) {\n"
      "\t\t_ = v\n"
      "\t}\n"
      "\tswitch (T{}) {\n"
      "\t}\n"
      "\tif (x) {\n"
      "\t}\n"
      "\t_ = ((y))\n"
      "}\n";
  EXPECT_EQ(RoundTrip(src), src);
}

TEST(PrinterTest, FunctionTypeConversions) {
  // `func()()(nil)` converts nil; without the empty result list the
  // arguments would become results. Parenthesized results stay too.
  std::string out = RoundTrip(
      "package p\n\n"
      "var a = func()()(nil)\n"
      "var b = (func())(nil)\n"
      "var c = func() func() func()()(nil)\n"
      "\n"
      "func g() ((int)) { return 1 }\n");
  EXPECT_NE(out.find("func() ()(nil)"), std::string::npos) << out;
  EXPECT_NE(out.find("func g() ((int))"), std::string::npos) << out;
}

TEST(PrinterTest, TypeParameterThatLooksLikeAnArrayLength) {
  // [P *C] alone declares an array type; the comma makes it generic.
  const std::string src =
      "package p\n\n"
      "type T[P *C,] struct{}\n"
      "type U[P *C | ~int] struct{}\n"
      "type V [N * M]int\n";
  EXPECT_EQ(RoundTrip(src), src);
  auto p = ParseString(src);
  ASSERT_EQ(p->file->decls.size(), 3u);
  EXPECT_EQ(As<TypeDecl>(p->file->decls[0])->tparams.size(), 1u);
  EXPECT_TRUE(As<TypeDecl>(p->file->decls[2])->tparams.empty());
}

TEST(PrinterTest, RawStringsAndStatementsEndingLines) {
  // A newline inside a literal ends column alignment on its line (as gofmt).
  const std::string src =
      "package p\n\n"
      "const (\n"
      "\tx = `line one\n"
      "line two`\n"
      "\tyyy = 2 // after a raw string\n"
      ")\n\n"
      "func f() {\n"
      "\ts := `a\n"
      "\tb`\n"
      "\tg(s, `\n"
      "`)\n"
      "\treturn\n"
      "}\n";
  EXPECT_EQ(RoundTrip(src), src);
}

TEST(PrinterTest, LabelsAndEmptyStatements) {
  // An empty statement is printed (gofmt drops it) so the tree is kept; a
  // label right before '}' needs none.
  std::string out = RoundTrip(
      "package p\n\n"
      "func f() {\n"
      "outer:\n"
      "\tfor {\n"
      "\t\tbreak outer\n"
      "\t}\n"
      "\t;\n"
      "\tx();;y()\n"
      "end:\n"
      "}\n"
      "func g() { a: ; b() }\n");
  EXPECT_EQ(out,
            "package p\n\n"
            "func f() {\n"
            "outer:\n"
            "\tfor {\n"
            "\t\tbreak outer\n"
            "\t}\n"
            "\t;\n"
            "\tx()\n"
            "\t;\n"
            "\ty()\n"
            "end:\n"
            "}\n"
            "func g() {\n"
            "a:\n"
            "\t;\n"
            "\tb()\n"
            "}\n");
}

// ----------------------------------------------------------------------------
// Comments

TEST(PrinterTest, CommentsKeepTheirLines) {
  const std::string src =
      "// Doc of the package.\n"
      "package p // trailing on package\n"
      "\n"
      "/* block before */\n"
      "func f( /* in params */ a int) {\n"
      "\t// own line\n"
      "\tx := a /* inline */ + 1 // trailing\n"
      "\t/* multi\n"
      "\t   line */\n"
      "\tg(x, // after comma\n"
      "\t\ty)\n"
      "\t// before closing brace\n"
      "}\n"
      "\n"
      "// last\n";
  EXPECT_EQ(RoundTrip(src), src);
}

TEST(PrinterTest, DirectivesStayAtLineStart) {
  std::string out = RoundTrip(
      "package p\n"
      "//go:generate stringer\n"
      "func f() {\n"
      "    //go:noinline\n"
      "  g()\n"
      "//line foo.go:10\n"
      "  h() /*line bar.go:1:1*/\n"
      "}\n");
  EXPECT_NE(out.find("\n\t//go:noinline\n\tg()\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n//line foo.go:10\n\th()"), std::string::npos) << out;
  EXPECT_NE(out.find("\n//go:generate stringer\nfunc f()"), std::string::npos) << out;
}

TEST(PrinterTest, TrailingCommentBeforeClosingBracketStaysTrailing) {
  // gofmt moves "// c" below the call here, away from its line.
  std::string out = RoundTrip(
      "package p\n\n"
      "var x = f(a, b, // c\n"
      ")\n"
      "var y = T{A: 1, // d\n"
      "}\n");
  EXPECT_NE(out.find("f(a, b, // c\n"), std::string::npos) << out;
  EXPECT_NE(out.find("T{A: 1, // d\n"), std::string::npos) << out;
}

TEST(PrinterTest, CommentsBetweenEveryToken) {
  // Block comments between all tokens, and line comments at line ends,
  // even where a newline inserts a semicolon.
  RoundTrip(
      "package /*1*/ p /*2*/\n"
      "func /*3*/ f /*4*/ ( /*5*/ a /*6*/ int /*7*/ ) /*8*/ { /*9*/ // 10\n"
      "\tif /*11*/ a /*12*/ > /*13*/ 0 /*14*/ { // 15\n"
      "\t\treturn /*16*/ // 17\n"
      "\t} /*18*/ else /*19*/ { /*20*/ a /*21*/ ++ /*22*/ }\n"
      "\tx /*23*/ := /*24*/ [] /*25*/ int /*26*/ { /*27*/ 1 /*28*/ , /*29*/ } /*30*/\n"
      "\t_ /*31*/ = /*32*/ x /*33*/ [ /*34*/ 0 /*35*/ ] // 36\n"
      "} /*37*/ // 38\n");
}

// Runs fn on a thread with a stack too small for the deep trees below
// (128 KB, less than the guard's reserve), so that they must switch stacks.
void OnSmallStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{128} << 10);
  pthread_t t;
  auto run = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&t, &attr, run, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_attr_destroy(&attr);
  pthread_join(t, nullptr);
}

TEST(PrinterTest, DeepTreesDoNotOverflowTheStack) {
  // Deep nesting (within what the parser accepts even under sanitizers):
  // the recursive passes continue on fresh stacks (stack_guard.h) instead of
  // overflowing the small stack.
  std::string src = "package p\n\nfunc f() {\n\tif x == 0 {\n\t}";
  for (int i = 1; i < 3000; i++) src += " else if x == " + std::to_string(i) + " {\n\t}";
  src += "\n\t_ = ";
  for (int i = 0; i < 1500; i++) src += "(";
  src += "1";
  for (int i = 0; i < 1500; i++) src += ")";
  src += "\n\t_ = 1";
  for (int i = 0; i < 1500; i++) src += " + 1";
  src += "\n}\n";
  auto a = ParseString(src);
  ASSERT_EQ(a->errors, 0) << a->first_error;
  std::string out;
  int nodes = 0;
  OnSmallStack([&] {
    out = PrintFile(*a->file);
    Inspect(a->file, [&](Node*) {
      nodes++;
      return true;
    });
  });
  EXPECT_EQ(out, src);
  EXPECT_GT(nodes, 3 * 3000 + 1500 + 2 * 1500);
  auto b = ParseString(out);
  ASSERT_EQ(b->errors, 0);
  bool equal = false;
  OnSmallStack([&] { equal = EqualTrees(a->file, b->file, nullptr); });
  EXPECT_TRUE(equal);
}

TEST(PrinterTest, MultiLineArgumentsBeforeDots) {
  // The unindent after a multi-line list must not hide that `42` and `...`
  // would merge into `42.` `..`.
  const std::string src =
      "package p\n\n"
      "func f() {\n"
      "\tg(3,\n"
      "\t\t42 ...,\n"
      "\t)\n"
      "}\n";
  std::string out = RoundTrip(src);
  EXPECT_NE(out.find("42 ..."), std::string::npos) << out;
}

TEST(PrinterTest, OwnLineCommentsWaitForALineBreak) {
  // The `]` of `[...]T` has no recorded position and prints before the
  // comment; a line break before the comment there would end the statement.
  std::string out = RoundTrip(
      "package p\n\n"
      "var _ = [\n"
      "...\n"
      "/* c */ ]byte(\"foo\")\n");
  EXPECT_NE(out.find("[...]byte("), std::string::npos) << out;
  // A comment that trailed a token the tree drops (the `()` of an empty
  // result list) still trails its line.
  out = RoundTrip(
      "package p\n\n"
      "type I interface {\n"
      "\tg(\n"
      "x,\n"
      " y int) (\n"
      ")  // gone\n"
      "}\n");
  EXPECT_NE(out.find("\t\ty int) // gone\n}"), std::string::npos) << out;
}

// ----------------------------------------------------------------------------
// PrintNode and hand-built trees

TEST(PrinterTest, PrintNodeOfParsedNodes) {
  auto p = ParseString(
      "package p\n\n"
      "func f() {\n"
      "\tx := g(1, // one\n"
      "\t\t2)\n"
      "}\n");
  ASSERT_EQ(p->errors, 0);
  auto* fn = As<FuncDecl>(p->file->decls[0]);
  ASSERT_NE(fn, nullptr);
  const Stmt* s = fn->body->list[0];
  EXPECT_EQ(PrintNode(s, p->file), "x := g(1, // one\n\t2)");
  // Without the file there is no layout to follow: one line.
  EXPECT_EQ(PrintNode(As<AssignStmt>(s)->rhs, nullptr), "g(1, 2)");
  EXPECT_EQ(PrintNode(As<AssignStmt>(s)->rhs, p->file), "g(1, // one\n\t2)");
  EXPECT_EQ(PrintNode(fn->type, nullptr), "func()");
}

TEST(PrinterTest, ParsedTreeWithInsertedNodes) {
  // A rewrite (as instrumentation does) inserts nodes without positions
  // into a parsed tree: they print in the default layout among the
  // original statements and comments.
  auto p = ParseString(
      "package p\n\n"
      "func f(ch chan int) {\n"
      "\t// send\n"
      "\tch <- 1 // one\n"
      "\tclose(ch)\n"
      "}\n");
  ASSERT_EQ(p->errors, 0);
  auto* fn = As<FuncDecl>(p->file->decls[0]);
  ASSERT_NE(fn, nullptr);
  auto* hook = p->arena.New<Name>();
  hook->value = "hook";
  auto* call = p->arena.New<CallExpr>();
  call->fun = hook;
  auto* stmt = p->arena.New<CallStmt>();
  stmt->tok = Token::Defer;
  stmt->call = call;
  std::vector<Stmt*> list(fn->body->list.begin(), fn->body->list.end());
  list.insert(list.begin() + 1, stmt);
  fn->body->list = p->arena.Copy(list.data(), list.size());
  std::string out = PrintFile(*p->file);
  EXPECT_EQ(out,
            "package p\n\n"
            "func f(ch chan int) {\n"
            "\t// send\n"
            "\tch <- 1 // one\n"
            "\tdefer hook()\n"
            "\tclose(ch)\n"
            "}\n");
}

class HandBuilt : public ::testing::Test {
 protected:
  template <class T>
  T* New() {
    return arena_.New<T>();
  }
  Name* N(std::string_view v) {
    auto* n = New<Name>();
    n->value = v;
    return n;
  }
  BasicLit* Int(std::string_view v) {
    auto* n = New<BasicLit>();
    n->value = v;
    return n;
  }
  Operation* Op2(Op op, Expr* x, Expr* y) {
    auto* o = New<Operation>();
    o->op = op;
    o->x = x;
    o->y = y;
    return o;
  }
  Operation* Op1(Op op, Expr* x) { return Op2(op, x, nullptr); }
  template <class T>
  List<T> L(std::initializer_list<T*> xs) {
    return arena_.Copy(xs.begin(), xs.size());
  }
  Arena arena_;
};

TEST_F(HandBuilt, OperatorsWithoutPositions) {
  EXPECT_EQ(PrintNode(Op2(Op::Sub, N("x"), Op1(Op::Sub, N("y")))), "x - -y");
  EXPECT_EQ(PrintNode(Op1(Op::Sub, Op1(Op::Sub, N("y")))), "- -y");
  EXPECT_EQ(PrintNode(Op1(Op::Recv, Op1(Op::Recv, N("ch")))), "<-<-ch");
  EXPECT_EQ(PrintNode(Op2(Op::Div, N("x"), Op1(Op::Mul, N("p")))), "x / *p");
  EXPECT_EQ(PrintNode(Op2(Op::And, N("x"), Op1(Op::Xor, N("y")))), "x & ^y");
  // Precedence the tree implies but no ParenExpr records.
  EXPECT_EQ(PrintNode(Op2(Op::Mul, Op2(Op::Add, N("a"), N("b")), N("c"))), "(a + b) * c");
  EXPECT_EQ(PrintNode(Op2(Op::Add, Op2(Op::Mul, N("a"), N("b")), N("c"))), "a*b + c");
}

TEST_F(HandBuilt, FileWithoutPositionsRoundTrips) {
  // package p
  // type T[P *C] int   (generic: needs the trailing comma)
  // func f(a, b int) { L: for { a++; break L }; return }
  auto* file = New<File>();
  file->pkg_name = N("p");
  auto* td = New<TypeDecl>();
  td->name = N("T");
  auto* tp = New<Field>();
  tp->name = N("P");
  tp->type = Op1(Op::Mul, N("C"));
  td->tparams = L<Field>({tp});
  td->type = N("int");

  auto* fd = New<FuncDecl>();
  fd->name = N("f");
  fd->type = New<FuncType>();
  Expr* int_type = N("int");
  auto* pa = New<Field>();
  pa->name = N("a");
  pa->type = int_type;
  auto* pb = New<Field>();
  pb->name = N("b");
  pb->type = int_type;  // shared: declared together
  fd->type->params = L<Field>({pa, pb});
  auto* inc = New<AssignStmt>();
  inc->op = Op::Add;
  inc->lhs = N("a");
  auto* brk = New<BranchStmt>();
  brk->tok = Token::Break;
  brk->label = N("L");
  auto* loop = New<ForStmt>();
  loop->body = New<BlockStmt>();
  loop->body->list = L<Stmt>({inc, brk});
  auto* labeled = New<LabeledStmt>();
  labeled->label = N("L");
  labeled->stmt = loop;
  fd->body = New<BlockStmt>();
  fd->body->list = L<Stmt>({labeled, New<ReturnStmt>()});
  file->decls = L<Decl>({td, fd});

  std::string out = PrintFile(*file);
  EXPECT_EQ(out,
            "package p\n"
            "\n"
            "type T[P *C,] int\n"
            "\n"
            "func f(a, b int) {\n"
            "L:\n"
            "\tfor {\n"
            "\t\ta++\n"
            "\t\tbreak L\n"
            "\t}\n"
            "\treturn\n"
            "}\n");
  auto re = ParseString(out);
  ASSERT_EQ(re->errors, 0) << re->first_error;
  std::string diff;
  EXPECT_TRUE(EqualTrees(file, re->file, &diff)) << diff;
}

}  // namespace
}  // namespace gordian::syntax
