// Robustness of the parser on hostile input: random token soup, random byte
// mutations and every kind of truncation of real files, deep nesting, and
// inputs that would make a naive branch checker quadratic. Each must
// terminate quickly with errors reported (never a crash), a well formed tree
// (parser_testing.h), and memory proportional to the input.
#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/syntax/parser_testing.h"
#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int errors = 0;
  std::string first;     // first error, formatted
  std::string problem;   // from CheckTree
  size_t arena_bytes = 0;
};

Outcome ParseText(const std::string& text, unsigned mode = kParseDefault) {
  SourceSet set;
  SourceFile* src = set.AddFile("x.go", text);
  Arena arena;
  Outcome out;
  int delivered = 0;
  ParseResult r = Parse(*src, &arena, [&](const Error& e) {
    if (delivered++ == 0) out.first = FormatError(*src, e);
  }, mode);
  out.errors = r.error_count;
  EXPECT_EQ(delivered, r.error_count);
  out.problem = testing::CheckTree(r.file, *src);
  out.arena_bytes = arena.bytes_allocated();
  return out;
}

// Arena use is bounded by a constant per input byte (blocks start at 64 KiB
// and double, so allow for one partly used block).
void ExpectBoundedMemory(const Outcome& o, size_t input) {
  EXPECT_LE(o.arena_bytes, 64 * input + (size_t{1} << 20)) << "input " << input << " bytes";
}

const char* const kTokens[] = {
    "package", "import", "func", "var", "const", "type", "struct", "interface", "map",
    "chan", "go", "defer", "return", "if", "else", "for", "range", "switch", "case",
    "default", "select", "break", "continue", "goto", "fallthrough", "x", "y", "T", "_",
    "p", "1", "2.5", "0x1F", "'a'", "\"s\"", "`r`", "1i", "(", ")", "[", "]", "{", "}",
    ",", ";", ":", ".", "...", "=", ":=", "+", "-", "*", "/", "%", "&", "|", "^", "<<",
    ">>", "&^", "+=", "-=", "<-", "++", "--", "==", "!=", "<", "<=", ">", ">=", "&&",
    "||", "!", "~", "\n", "\n", "\n", " ", "//c\n", "/*c*/", "@", "\"unterminated",
};

std::string TokenSoup(std::mt19937& rng, size_t n, bool with_package) {
  std::string s = with_package ? "package p\n" : "";
  std::uniform_int_distribution<size_t> pick(0, std::size(kTokens) - 1);
  for (size_t i = 0; i < n; i++) {
    s += kTokens[pick(rng)];
    s += ' ';
  }
  return s;
}

TEST(ParserRobust, RandomTokenSoup) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 3000; i++) {
    std::string text = TokenSoup(rng, 1 + static_cast<size_t>(i % 300), i % 4 != 0);
    Outcome o = ParseText(text, i % 2 == 0 ? kCheckBranches : kParseDefault);
    ASSERT_EQ(o.problem, "") << text;
    ExpectBoundedMemory(o, text.size());
  }
}

// Soup inside a function body exercises statement recovery (the stop set).
TEST(ParserRobust, RandomStatementsInFunctions) {
  std::mt19937 rng(777);
  for (int i = 0; i < 2000; i++) {
    std::string text = "package p\nfunc f() {\n" + TokenSoup(rng, 1 + static_cast<size_t>(i % 200), false) +
                       "\n}\nfunc g() { x := 1; _ = x }\n";
    Outcome o = ParseText(text, kCheckBranches);
    ASSERT_EQ(o.problem, "") << text;
  }
}

TEST(ParserRobust, BinaryGarbage) {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 300; i++) {
    std::string text = i % 2 ? "package p\n" : "";
    for (int k = 0; k < 2000; k++) text += static_cast<char>(byte(rng));
    Outcome o = ParseText(text);
    ASSERT_EQ(o.problem, "");
    EXPECT_GT(o.errors, 0);
  }
}

// A real, varied Go file: the testdata error files and a file built here.
std::string SampleFile() {
  return R"(package sample

import (
	"fmt"
	m "math"
)

type List[T any] struct {
	head *node[T]
	size int `json:"size"`
}

type node[T any] struct {
	val  T
	next *node[T]
}

func (l *List[T]) Push(v T) { l.head = &node[T]{v, l.head}; l.size++ }

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func worker(ch <-chan int, done chan<- struct{}) {
	defer close(done)
	for {
		select {
		case v, ok := <-ch:
			if !ok {
				return
			}
			fmt.Println(v, m.Sqrt(float64(v)))
		default:
		}
	}
}

func main() {
	ch := make(chan int)
	done := make(chan struct{})
	go worker(ch, done)
outer:
	for i := range 10 {
		switch {
		case i%2 == 0:
			ch <- i
		case i > 7:
			break outer
		default:
			continue
		}
	}
	close(ch)
	<-done
	var x interface{} = 1
	switch y := x.(type) {
	case int:
		_ = y
	}
	_ = Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })
}
)";
}

TEST(ParserRobust, EveryPrefixOfARealFile) {
  std::string text = SampleFile();
  ASSERT_EQ(ParseText(text, kCheckBranches).errors, 0) << ParseText(text).first;
  for (size_t n = 0; n <= text.size(); n++) {
    Outcome o = ParseText(text.substr(0, n));
    ASSERT_EQ(o.problem, "") << "prefix of " << n << " bytes";
  }
}

TEST(ParserRobust, EverySuffixAndDeletion) {
  std::string text = SampleFile();
  for (size_t n = 0; n < text.size(); n += 3) {
    ASSERT_EQ(ParseText(text.substr(n)).problem, "") << "suffix from " << n;
    std::string del = text.substr(0, n) + text.substr(std::min(text.size(), n + 7));
    ASSERT_EQ(ParseText(del, kCheckBranches).problem, "") << "deletion at " << n;
  }
}

TEST(ParserRobust, RandomMutationsOfARealFile) {
  std::string text = SampleFile();
  std::mt19937 rng(4242);
  const std::string alphabet = "(){}[];:,.=<-*&|\"'`/\n \tabcx019";
  for (int i = 0; i < 3000; i++) {
    std::string t = text;
    int edits = 1 + i % 8;
    for (int k = 0; k < edits; k++) {
      size_t at = std::uniform_int_distribution<size_t>(0, t.size() - 1)(rng);
      char c = alphabet[std::uniform_int_distribution<size_t>(0, alphabet.size() - 1)(rng)];
      switch (k % 3) {
        case 0: t[at] = c; break;
        case 1: t.insert(t.begin() + static_cast<ptrdiff_t>(at), c); break;
        default: t.erase(at, 1); break;
      }
    }
    Outcome o = ParseText(t, kCheckBranches);
    ASSERT_EQ(o.problem, "") << t;
  }
}

// Truncations of a sample of GOROOT files (when Go is installed): cut at
// many points, including inside tokens, comments and string literals.
TEST(ParserRobust, TruncatedGoRootFiles) {
  std::string root = testing::GoEnvGoRoot();
  if (root.empty()) GTEST_SKIP() << "go is not installed";
  const char* files[] = {"src/sync/mutex.go", "src/context/context.go",
                         "src/go/parser/parser.go", "src/net/http/server.go",
                         "src/cmd/compile/internal/syntax/parser.go", "src/slices/sort.go"};
  SourceSet set;
  int tested = 0;
  for (const char* rel : files) {
    std::string err;
    SourceFile* full = set.ReadFile(root + "/" + rel, &err);
    if (full == nullptr) continue;
    std::string text(full->content());
    size_t step = std::max<size_t>(1, text.size() / 150);
    for (size_t n = 0; n < text.size(); n += step) {
      Outcome o = ParseText(text.substr(0, n));
      ASSERT_EQ(o.problem, "") << rel << " cut at " << n;
      ExpectBoundedMemory(o, n);
      tested++;
    }
  }
  EXPECT_GT(tested, 0);
}

// ----------------------------------------------------------------------------
// Deep nesting: reported once as "exceeded max nesting depth", never a stack
// overflow; moderate nesting is fine.

std::string Repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; i++) out += s;
  return out;
}

TEST(ParserRobust, DeepNesting) {
  const size_t kDeep = 200000;
  struct Case {
    std::string name, text;
  } cases[] = {
      {"parens", "package p\nvar x = " + Repeat("(", kDeep) + "1" + Repeat(")", kDeep) + "\n"},
      {"unary", "package p\nvar x = " + Repeat("- ", kDeep) + "1\n"},
      {"not", "package p\nvar x = " + Repeat("!", kDeep) + "1\n"},
      {"receive", "package p\nvar x = " + Repeat("<-", kDeep) + "c\n"},
      {"pointers", "package p\nvar x " + Repeat("*", kDeep) + "int\n"},
      {"slices", "package p\nvar x " + Repeat("[]", kDeep) + "int\n"},
      {"chans", "package p\nvar x " + Repeat("chan ", kDeep) + "int\n"},
      {"maps", "package p\nvar x " + Repeat("map[int]", kDeep) + "int\n"},
      {"funcs", "package p\nvar x " + Repeat("func(", kDeep) + Repeat(")", kDeep) + "\n"},
      {"structs", "package p\ntype T " + Repeat("struct{ f ", kDeep) + "int" + Repeat("}", kDeep) + "\n"},
      {"complits", "package p\nvar x = T" + Repeat("{", kDeep) + Repeat("}", kDeep) + "\n"},
      {"blocks", "package p\nfunc f() " + Repeat("{", kDeep) + Repeat("}", kDeep) + "\n"},
      {"ifs", "package p\nfunc f() {" + Repeat("if x {", kDeep) + Repeat("}", kDeep) + "}\n"},
      {"elseifs", "package p\nfunc f() { if x {}" + Repeat(" else if x {}", kDeep) + "}\n"},
      {"labels", "package p\nfunc f() {" + Repeat("L: ", kDeep) + "}\n"},
      {"funclits", "package p\nvar x = " + Repeat("func() { _ = ", kDeep) + "1" + Repeat("}", kDeep) + "\n"},
      {"indexes", "package p\nvar x = a" + Repeat("[a", kDeep) + Repeat("]", kDeep) + "\n"},
      {"calls", "package p\nvar x = f" + Repeat("(f", kDeep) + Repeat(")", kDeep) + "\n"},
      {"unclosed", "package p\nvar x = " + Repeat("([", kDeep) + "\n"},
      {"unclosed2", "package p\nfunc f() { x = " + Repeat("func() { T{", kDeep) + "\n"},
  };
  for (const Case& c : cases) {
    auto t0 = std::chrono::steady_clock::now();
    Outcome o = ParseText(c.text, kCheckBranches);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_GT(o.errors, 0) << c.name;
    EXPECT_NE(o.first.find("exceeded max nesting depth"), std::string::npos)
        << c.name << ": " << o.first;
    EXPECT_EQ(o.problem, "") << c.name;
    EXPECT_LT(secs, 5.0) << c.name;
    ExpectBoundedMemory(o, c.text.size());
  }
}

// The stack limit is measured against the stack of the thread that parses,
// whatever other threads (with larger stacks) parsed before: on a thread
// whose stack is smaller than the parser's fixed limit, deep nesting is
// still refused with the same error, not a stack overflow, on the first
// parse and on later ones.
struct ThreadParse {
  const std::string* text;
  std::vector<Outcome> outcomes;
};

void* ParseTwiceOnThisThread(void* arg) {
  auto* job = static_cast<ThreadParse*>(arg);
  for (int i = 0; i < 2; i++) job->outcomes.push_back(ParseText(*job->text));
  return nullptr;
}

TEST(ParserRobust, DeepNestingOnSmallStackThreads) {
  const size_t kDeep = 200000;
  std::string text = "package p\nvar x = " + Repeat("(", kDeep) + "1" + Repeat(")", kDeep) + "\n" +
                     "func f() {" + Repeat("if x {", kDeep) + Repeat("}", kDeep) + "}\n";
  Outcome on_main = ParseText(text);  // the main thread, with its large stack, first
  ASSERT_NE(on_main.first.find("exceeded max nesting depth"), std::string::npos) << on_main.first;
  for (size_t stack_size : {size_t{512} << 10, size_t{2} << 20}) {
    ThreadParse job{&text, {}};
    pthread_attr_t attr;
    pthread_t thread;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_size), 0);
    ASSERT_EQ(pthread_create(&thread, &attr, ParseTwiceOnThisThread, &job), 0);
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
    ASSERT_EQ(job.outcomes.size(), 2u);
    for (const Outcome& o : job.outcomes) {
      EXPECT_GT(o.errors, 0) << stack_size;
      EXPECT_NE(o.first.find("exceeded max nesting depth"), std::string::npos)
          << stack_size << ": " << o.first;
      EXPECT_EQ(o.problem, "") << stack_size;
    }
  }
}

TEST(ParserRobust, ModerateNestingIsFine) {
  const size_t kOk = 500;
  std::string text = "package p\nvar x = " + Repeat("(", kOk) + "1" + Repeat(")", kOk) + "\n" +
                     "var y " + Repeat("[]*", kOk) + "int\n" +
                     "func f() {" + Repeat("if x {", kOk) + Repeat("}", kOk) + "}\n" +
                     "var z = T" + Repeat("{", kOk) + Repeat("}", kOk) + "\n";
  Outcome o = ParseText(text);
  EXPECT_EQ(o.errors, 0) << o.first;
  EXPECT_EQ(o.problem, "");
}

// Many labels and forward gotos in one function: the branch check must not
// be quadratic.
TEST(ParserRobust, ManyLabelsAndGotos) {
  const int n = 40000;
  std::string text = "package p\nfunc f() {\n";
  for (int i = 0; i < n; i++) text += fmt::format("\tgoto L{}\n", i);
  for (int i = 0; i < n; i++) text += fmt::format("\tx{} := 1\n\t_ = x{}\n", i, i);
  for (int i = 0; i < n; i++) text += fmt::format("L{}:\n\t;\n", i);
  text += "}\n";
  auto t0 = std::chrono::steady_clock::now();
  Outcome o = ParseText(text, kCheckBranches);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(o.errors, n);  // every goto jumps over a declaration
  // (the declaration named is the last one before the label, as in gc)
  EXPECT_NE(o.first.find(fmt::format("goto L0 jumps over declaration of x{}", n - 1)),
            std::string::npos)
      << o.first;
  EXPECT_LT(secs, 10.0);
}

}  // namespace
}  // namespace gordian::syntax
