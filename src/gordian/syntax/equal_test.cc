// Tests of EqualTrees: what counts as a difference (names, literals,
// operators, flags, absent children, grouping) and what does not (layout,
// comments), and the description of the first difference.
#include "gordian/syntax/equal.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

class EqualTest : public ::testing::Test {
 protected:
  File* ParseOK(const std::string& text) {
    SourceFile* src = set_.AddFile("eq.go", text);
    ParseResult r = Parse(*src, &arena_, {});
    EXPECT_EQ(r.error_count, 0) << FormatError(*src, r.first_error);
    return r.file;
  }

  // The diff for two files, or "equal".
  std::string Diff(const std::string& a, const std::string& b) {
    std::string diff;
    if (EqualTrees(ParseOK(a), ParseOK(b), &diff)) return "equal";
    return diff;
  }

  SourceSet set_;
  Arena arena_;
};

struct DiffCase {
  const char* a;
  const char* b;
  const char* want;  // the description of the first difference, or "equal"
};

constexpr DiffCase kDiffCases[] = {
    // Layout and comments are no difference.
    {"package p\nfunc f(a, b int) { x := a+b; g(x) }\n",
     "package p\n\n// doc\nfunc f(a, b int) {\n\tx := a + b // sum\n\tg(\n\t\tx,\n\t)\n}\n",
     "equal"},
    // Names, literals and operators.
    {"package p\nvar x = a + 1\n", "package p\nvar y = a + 1\n", "decls[0].names[0].value: x vs y"},
    {"package p\nvar x = a + 1\n",
     "package p\nvar x = a + 0x1\n",
     "decls[0].values.y.value: 1 vs 0x1"},
    {"package p\nvar x = a + 1\n", "package p\nvar x = a - 1\n", "decls[0].values.op: + vs -"},
    {"package p\nvar x = 'a'\n",
     "package p\nvar x = \"a\"\n",
     "decls[0].values.value: 'a' vs \"a\""},
    // Absent children and flags.
    {"package p\nvar x = s[a:]\n",
     "package p\nvar x = s[:a]\n",
     "decls[0].values.index[0]: Name vs nil"},
    {"package p\nvar x = f(a)\n",
     "package p\nvar x = f(a...)\n",
     "decls[0].values.has_dots: false vs true"},
    {"package p\ntype A = int\n", "package p\ntype A int\n", "decls[0].alias: true vs false"},
    {"package p\nvar c chan<- int\n", "package p\nvar c <-chan int\n", "decls[0].type.dir: 1 vs 2"},
    // Parentheses and list lengths.
    {"package p\nvar x = (a)\n",
     "package p\nvar x = a\n",
     "decls[0].values: kind ParenExpr vs Name"},
    {"package p\nfunc f() { g(1, 2) }\n",
     "package p\nfunc f() { g(1) }\n",
     "decls[0].body.list[0].x.args: 2 vs 1 elements"},
    // Fields declared together or apart.
    {"package p\nfunc f(a, b int)\n",
     "package p\nfunc f(a int, b int)\n",
     "decls[0].type.params[1]: grouped with the previous field vs not grouped"},
    {"package p\ntype S struct{ a int; b int }\n",
     "package p\ntype S struct{ a, b int }\n",
     "decls[0].type.fields[1]: not grouped with the previous field vs grouped"},
    // Declarations grouped or not.
    {"package p\nvar (\n\ta int\n\tb int\n)\n",
     "package p\nvar a int\nvar b int\n",
     "decls[0]: starts a group vs not in a group"},
    {"package p\nvar (\n\ta int\n\tb int\n)\n",
     "package p\nvar (\n\ta int\n)\nvar (\n\tb int\n)\n",
     "decls[1]: in the previous decl's group vs starts a group"},
    {"package p\nvar (\n\ta int\n\tb int\n)\n", "package p\nvar (a int; b int)\n", "equal"},
};

TEST_F(EqualTest, FirstDifference) {
  for (const DiffCase& c : kDiffCases) {
    EXPECT_EQ(Diff(c.a, c.b), c.want) << c.a << "vs\n" << c.b;
  }
}

TEST_F(EqualTest, NullsAndNoDiffPointer) {
  File* f = ParseOK("package p\n");
  std::string diff = "untouched";
  EXPECT_TRUE(EqualTrees(nullptr, nullptr, &diff));
  EXPECT_EQ(diff, "untouched");
  EXPECT_FALSE(EqualTrees(f, nullptr, &diff));
  EXPECT_EQ(diff, "File vs nil");
  EXPECT_FALSE(EqualTrees(f->pkg_name, f, nullptr));  // no diff requested
  EXPECT_TRUE(EqualTrees(f, f, nullptr));
}

}  // namespace
}  // namespace gordian::syntax
