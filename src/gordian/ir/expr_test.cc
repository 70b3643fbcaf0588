// Tests of the IR's integer expressions.
#include "gordian/ir/expr.h"

#include <gtest/gtest.h>

namespace gordian::ir {
namespace {

TEST(IrExpr, ParsesAtomsAndLists) {
  Expr e;
  std::string err;
  ASSERT_TRUE(ParseExpr("(< (+ t5 1) (len p1))", &e, &err)) << err;
  ASSERT_EQ(e.items.size(), 3u);
  EXPECT_EQ(e.items[0].atom, "<");
  EXPECT_EQ(e.items[1].items[1].atom, "t5");
  EXPECT_EQ(e.items[2].items[0].atom, "len");
  EXPECT_EQ(FormatExpr(e), "(< (+ t5 1) (len p1))");
  ASSERT_TRUE(ParseExpr("42", &e, &err)) << err;
  EXPECT_TRUE(e.IsAtom());
  EXPECT_EQ(e.atom, "42");
}

TEST(IrExpr, FreeRefsSkipHeadsLiteralsAndFieldNames) {
  Expr e;
  std::string err;
  ASSERT_TRUE(ParseExpr("(+ (* p0 2) (field (load f1) count) (call fn:F3 t2) -1 p0 (extract t9 1))", &e, &err));
  EXPECT_EQ(FreeRefs(e), (std::vector<std::string>{"p0", "f1", "fn:F3", "t2", "t9"}));
}

TEST(IrExpr, RejectsMalformed) {
  for (const char* bad : {"", "(", ")", "(+ 1 2", "(+ 1 2))", "()", "(+ 1) 2", "  "}) {
    Expr e;
    std::string err;
    EXPECT_FALSE(ParseExpr(bad, &e, &err)) << "accepted: '" << bad << "'";
    EXPECT_FALSE(err.empty());
  }
}

TEST(IrExpr, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  Expr e;
  std::string err;
  EXPECT_FALSE(ParseExpr(deep, &e, &err));
  EXPECT_NE(err.find("deeper"), std::string::npos) << err;
  std::string ok;
  for (int i = 0; i < 10; i++) ok += "(+ 1 ";
  ok += "2";
  ok += std::string(10, ')');
  EXPECT_TRUE(ParseExpr(ok, &e, &err)) << err;
}

}  // namespace
}  // namespace gordian::ir
