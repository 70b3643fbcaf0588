// Tests of the tree dump: the exact format of a small file (roles, key
// fields, positions, shared types, comments) and of a node without source.
#include "gordian/syntax/dump.h"

#include <gtest/gtest.h>

#include <string>

#include "gordian/syntax/syntax.h"

namespace gordian::syntax {
namespace {

TEST(DumpTest, SmallFile) {
  SourceSet set;
  SourceFile* src = set.AddFile("d.go",
                                "package p\n"
                                "\n"
                                "// doc\n"
                                "func f(a, b int) { x[1:] = <-c }\n");
  Arena arena;
  ParseResult r = Parse(*src, &arena, {});
  ASSERT_EQ(r.error_count, 0);
  EXPECT_EQ(DumpFile(*r.file),
            "File @d.go:1:1\n"
            "  pkg_name: Name p @d.go:1:9\n"
            "  decls[0]: FuncDecl @d.go:4:1\n"
            "    name: Name f @d.go:4:6\n"
            "    type: FuncType @d.go:4:7\n"
            "      params[0]: Field @d.go:4:8\n"
            "        name: Name a @d.go:4:8\n"
            "        type: Name int @d.go:4:13\n"
            "      params[1]: Field @d.go:4:11\n"
            "        name: Name b @d.go:4:11\n"
            "        type: (shared with the previous field)\n"
            "    body: BlockStmt @d.go:4:18\n"
            "      list[0]: AssignStmt = @d.go:4:26\n"
            "        lhs: SliceExpr @d.go:4:21\n"
            "          x: Name x @d.go:4:20\n"
            "          index[0]: BasicLit int \"1\" @d.go:4:22\n"
            "        rhs: Operation <- unary @d.go:4:28\n"
            "          x: Name c @d.go:4:30\n"
            "comments:\n"
            "  \"// doc\" @d.go:3:1\n");
}

TEST(DumpTest, NodeWithoutSource) {
  Arena arena;
  auto* lit = arena.New<BasicLit>();
  lit->value = "`two\nlines`";
  lit->lit_kind = LitKind::String;
  EXPECT_EQ(DumpNode(lit, nullptr), "BasicLit string \"`two\\nlines`\" @-\n");
}

}  // namespace
}  // namespace gordian::syntax
